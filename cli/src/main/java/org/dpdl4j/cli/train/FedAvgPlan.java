package org.dpdl4j.cli.train;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.privacy.noise.SecureNoiseStreams;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.federated.ClientSampling;
import org.dpdl4j.protocol.federated.CollusionAnalysis;
import org.dpdl4j.protocol.federated.FedAvgConfig;
import org.dpdl4j.protocol.federated.FedAvgPrivacy;
import org.dpdl4j.protocol.federated.FedAvgTrainer;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.protocol.federated.GopaAccountant;
import org.dpdl4j.protocol.federated.GopaCalibration;
import org.dpdl4j.protocol.federated.UpdateWeighting;
import org.dpdl4j.runtime.LearningRate;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** FedAvg, DP-FedAvg (local, central) and GOPA runs from the command-line settings. */
final class FedAvgPlan {
    /** Rounds when --rounds is not given. */
    static final long DEFAULT_ROUNDS = 100;
    /** Local mini-batch when --batch-size is not given. */
    static final int DEFAULT_LOCAL_BATCH = 32;

    private FedAvgPlan() {
    }

    /** Everything resolved for one run, as written to config.json. */
    record Resolved(String algorithm, int clients, long rounds, int localSteps, int localBatch, double localRate, double serverRate,
                    String clientSampling, String weighting, double clipNorm, double noiseMultiplier, double pairwiseMultiplier,
                    String gopaGraph, String adversary, String kappaBasis, double epsilonTarget, double delta, String noise, String model,
                    String split, String pixels) {
    }

    /** The checks that need no data. */
    static void validate(TrainSettings settings) {
        FederatedOptions.Federated f = settings.federated();
        PrivacyOptions.Privacy p = settings.privacy();
        FedAvgVariant variant = FedAvgVariant.fromCliName(settings.common().algorithm());
        if (!(f.clientRate() > 0 && f.clientRate() <= 1)) {
            throw new IllegalArgumentException("--client-rate must lie in (0, 1], got " + f.clientRate());
        }
        if (variant.isPrivate()) {
            if (p.clipNorm() == null) {
                throw new IllegalArgumentException("--algo " + variant.cliName() + " needs --clip S, the bound on each client's update");
            }
            if ((p.epsilon() == null) == (p.noiseMultiplier() == null)) {
                throw new IllegalArgumentException("--algo " + variant.cliName() + " needs exactly one of --epsilon (the noise is calibrated"
                        + " to it) and --noise-multiplier Z (noise std = Z S)");
            }
        } else if (p.epsilon() != null || p.clipNorm() != null || p.noiseMultiplier() != null) {
            throw new IllegalArgumentException("fedavg is not private: --epsilon, --clip and --noise-multiplier do not apply (use dp-fedavg-local,"
                    + " dp-fedavg-central or gopa)");
        }
        if (variant == FedAvgVariant.GOPA) {
            if (f.clientRate() != 1) {
                throw new IllegalArgumentException("GOPA needs every party of its graph in every round (its pairwise noise only cancels"
                        + " over the whole graph); use no client sampling (rate 1)");
            }
            if (p.epsilon() != null && f.pairwiseMultiplier() != null) {
                throw new IllegalArgumentException("--pairwise-multiplier goes with --noise-multiplier; with --epsilon both are calibrated");
            }
            if (p.noiseMultiplier() != null && f.pairwiseMultiplier() == null) {
                throw new IllegalArgumentException("gopa with --noise-multiplier also needs --pairwise-multiplier (sigma_Delta / S)");
            }
        } else if (f.pairwiseMultiplier() != null) {
            throw new IllegalArgumentException("--pairwise-multiplier applies to gopa only");
        }
    }

    /** The run; {@link #validate} has passed. */
    static FederatedPlan of(TrainSettings settings, FederatedData data, MultiLayerNetwork template) {
        CommonOptions.Common c = settings.common();
        PrivacyOptions.Privacy p = settings.privacy();
        FederatedOptions.Federated f = settings.federated();
        FedAvgVariant variant = FedAvgVariant.fromCliName(c.algorithm());
        int n = data.machines().size();
        long rounds = settings.decentralized().rounds() != null ? settings.decentralized().rounds() : DEFAULT_ROUNDS;
        int localBatch = c.batchSize() != null ? c.batchSize() : DEFAULT_LOCAL_BATCH;
        double lr = c.learningRate() != null ? c.learningRate() : DatasetDefaults.of(c.dataset().toLowerCase(Locale.ROOT)).learningRate();
        ClientSampling sampling = sampling(f, n);
        UpdateWeighting weighting = switch (f.weighting()) {
            case "uniform" -> UpdateWeighting.UNIFORM;
            case "size" -> UpdateWeighting.BY_DATA_SIZE;
            default -> throw new IllegalArgumentException("unknown --weighting '" + f.weighting() + "'; use uniform or size");
        };
        double clip = Double.POSITIVE_INFINITY;
        double z = 0;
        double zPairwise = 0;
        Graph gopaGraph = null;
        GopaAccountant gopa = null;
        if (variant.isPrivate()) {
            clip = p.clipNorm();
            if (variant == FedAvgVariant.GOPA) {
                gopaGraph = Topologies.randomKOut(n, f.gopaK(), new NoiseKey(c.seed(), "gopa-graph", 0, 0).seed());
                gopa = new GopaAccountant(gopaGraph, GopaAccountant.colludersOf(f.colludingFraction(), n),
                        CollusionAnalysis.parse(f.colludingSets(), c.seed()));
                if (p.epsilon() != null) {
                    GopaCalibration.Levels levels = GopaCalibration.calibrate(gopa,
                            GopaAccountant.kappaBudget(p.epsilon(), p.delta(), rounds, 2 * clip));
                    z = levels.sigmaPrivate() / clip;
                    zPairwise = levels.sigmaPairwise() / clip;
                } else {
                    z = p.noiseMultiplier();
                    zPairwise = f.pairwiseMultiplier();
                }
            } else {
                z = p.epsilon() != null ? FedAvgPrivacy.calibrate(variant, sampling, n, rounds, p.epsilon(), p.delta()) : p.noiseMultiplier();
            }
        }
        FedAvgConfig config = new FedAvgConfig(variant, rounds, f.localSteps(), localBatch, new LearningRate.Constant(lr), f.serverRate(),
                sampling, weighting, clip, z, zPairwise, c.seed());
        FedAvgPrivacy privacy = variant.isPrivate() ? FedAvgPrivacy.of(config, n, gopa, p.delta()) : null;
        NoiseStreams clients;
        NoiseStreams server;
        switch (p.noise()) {
            case "secure" -> {
                clients = new SecureNoiseStreams(gopaGraph != null ? gopaGraph : Graph.of(n));
                server = new SecureNoiseStreams(Graph.of(1));
            }
            case "seeded" -> {
                clients = new SeededNoiseStreams(c.seed());
                server = new SeededNoiseStreams(new NoiseKey(c.seed(), "server", 0, 0).seed());
            }
            default -> throw new IllegalArgumentException("unknown --noise '" + p.noise() + "'; use secure or seeded");
        }
        FedAvgTrainer trainer = new FedAvgTrainer(template, data.machines(), config, clients, server, gopaGraph);
        String adversary = gopa != null ? gopa.describeAdversary() : variant == FedAvgVariant.DP_LOCAL ? "the server and eavesdroppers"
                : variant == FedAvgVariant.DP_CENTRAL ? "anyone who sees the broadcast models (the server is trusted)" : "-";
        Resolved resolved = new Resolved(variant.cliName(), n, rounds, f.localSteps(), localBatch, lr, f.serverRate(), sampling.describe(),
                weighting.name().toLowerCase(Locale.ROOT), clip, z, zPairwise,
                gopaGraph != null ? "random " + f.gopaK() + "-out graph, " + gopaGraph.edgeCount() + " edges" : "-", adversary,
                privacy != null && privacy.kappa() != null ? privacy.kappa().basis().name().toLowerCase(Locale.ROOT) : "-",
                p.epsilon() != null ? p.epsilon() : Double.NaN, p.delta(), p.noise(), data.workload().model().cliName(), f.split(), f.pixels());
        Map<String, String> summary = new LinkedHashMap<>();
        summary.put("clients / rounds / local steps", n + " / " + rounds + " / " + f.localSteps());
        summary.put("client sampling", sampling.describe());
        if (variant.isPrivate()) {
            summary.put("clip S / noise multiplier z", String.format(Locale.ROOT, "%.4g / %.6g", clip, z));
        }
        if (gopa != null) {
            summary.put("GOPA sigma_eta / sigma_Delta", String.format(Locale.ROOT, "%.6g / %.6g", z * clip, zPairwise * clip));
            summary.put("GOPA adversary", adversary + " (" + privacy.kappa().basis().name().toLowerCase(Locale.ROOT) + ")");
        }
        String finalAdversary = adversary;
        return new FederatedPlan(trainer, variant.cliName() + ", " + n + " clients", privacy != null ? privacy::epsilon : null,
                privacy != null ? r -> privacy.statement(r, config, finalAdversary) : null, resolved, summary);
    }

    private static ClientSampling sampling(FederatedOptions.Federated f, int clients) {
        double q = f.clientRate();
        if (q == 1) {
            return new ClientSampling.Everyone();
        }
        return switch (f.clientSampling()) {
            case "poisson" -> new ClientSampling.Poisson(q);
            case "fixed" -> new ClientSampling.FixedSize(Math.max(1, (int) Math.round(q * clients)));
            default -> throw new IllegalArgumentException("unknown --client-sampling '" + f.clientSampling() + "'; use poisson or fixed");
        };
    }
}
