package org.dpdl4j.attacks.observe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.optim.FixedSizeSampler;
import org.dpdl4j.optim.RowClipping;
import org.dpdl4j.privacy.noise.PairwiseNoise;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.federated.CollusionAnalysis;
import org.dpdl4j.protocol.federated.FedAvgConfig;
import org.dpdl4j.protocol.federated.FedAvgPrivacy;
import org.dpdl4j.protocol.federated.FedAvgRunBuilder;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.federated.FedAvgTrainer;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.protocol.federated.GopaAccountant;
import org.dpdl4j.protocol.federated.GopaCalibration;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A FedAvg-family run on MNIST split evenly over {@value #CLIENTS} clients that all take part in every round, each
 * running one local SGD step on one example drawn from its data (so an update is one gradient), attacked by:
 * <ul>
 *   <li>{@code fedavg}: the server (each client's update) and an observer of the global model;</li>
 *   <li>{@code dp-fedavg-local}: the server, which sees each noisy clipped update;</li>
 *   <li>{@code dp-fedavg-central}: an observer of the global model (the server is trusted);</li>
 *   <li>{@code gopa}: the server colluding with {@value #COLLUDERS} clients, two neighbours of the attacked one in
 *       GOPA's random 3-out graph.</li>
 * </ul>
 * Updates are clipped to {@code S = eta C}, the clip C on a gradient. Noise is calibrated for {@value #PLANNED_ROUNDS}
 * rounds, user level, as the federated trainer does: {@link FedAvgPrivacy#calibrate} for DP-FedAvg,
 * {@link GopaCalibration} against the worst {@value #COLLUDERS} colluders for GOPA. Target j is the example client
 * {@code j mod 16} draws in round {@code attackRound + j / 16}.
 */
public final class FedAvgRun implements ProtocolScenario {
    /** Clients. */
    public static final int CLIENTS = 16;
    /** Rounds the noise is calibrated for (the federated trainer's default). */
    public static final long PLANNED_ROUNDS = 100;
    /** Clients colluding with GOPA's server. */
    public static final int COLLUDERS = 2;
    /** Out-degree of GOPA's random graph (the trainer's default). */
    public static final int GOPA_K = 3;

    private final FedAvgVariant variant;

    public FedAvgRun(FedAvgVariant variant) {
        this.variant = java.util.Objects.requireNonNull(variant, "variant must not be null");
    }

    @Override
    public String algorithm() {
        return variant.cliName();
    }

    @Override
    public List<String> observers() {
        return switch (variant) {
            case FEDAVG -> List.of("server", "aggregate");
            case DP_LOCAL -> List.of("server");
            case DP_CENTRAL -> List.of("aggregate");
            case GOPA -> List.of("server + colluders");
        };
    }

    @Override
    public boolean isPrivate() {
        return variant.isPrivate();
    }

    @Override
    public ScenarioRun run(RunWorkload workload, double epsilon) {
        Epsilons.require(this, epsilon);
        CampaignSettings s = workload.settings();
        double clip = s.learningRate() * s.clipNorm();
        SeededNoiseStreams clientStreams = new SeededNoiseStreams(s.seed());
        int[][] parties = TargetPlacement.split(workload.train().size(), CLIENTS, s.seed());
        List<TargetPlacement.Placement> placements = TargetPlacement.place(parties, workload.targets(),
                s.attackRound(), (client, round, size) ->
                        new FixedSizeSampler(size, 1).sample(clientStreams.sampling(client, round))[0]);
        List<NodeData> data = new ArrayList<>();
        for (int[] rows : parties) {
            data.add(new NodeData(workload.features(rows), workload.labels(rows)));
        }
        MultiLayerNetwork template = workload.newModel();
        // The trainer's own set-up: noise calibrated for the planned rounds, user level (a client's update, clipped to
        // S = eta C); GOPA against the worst COLLUDERS colluders on a random GOPA_K-out graph.
        FedAvgRunBuilder builder = FedAvgTrainer.builder().variant(variant).model(template).clients(data).rounds(PLANNED_ROUNDS)
                .localSteps(1).localBatch(1).localRate(new LearningRate.Constant(s.learningRate())).seed(s.seed())
                .noiseKind(NoiseKind.SEEDED).accountant(s.accountants());
        if (variant.isPrivate()) {
            builder.clip(clip).target(epsilon, s.delta());
        }
        if (variant == FedAvgVariant.GOPA) {
            builder.gopaK(GOPA_K).colluders((double) COLLUDERS / CLIENTS, CollusionAnalysis.worstCase());
        }
        long lastRound = placements.stream().mapToLong(TargetPlacement.Placement::round).max().orElseThrow();
        List<AttackCase> cases = new ArrayList<>();
        Map<String, String> calibration = new LinkedHashMap<>();
        try (FedAvgTrainer trainer = builder.build()) {
            FedAvgConfig config = trainer.config();
            Graph gopaGraph = trainer.gopaGraph();
            describe(calibration, config, trainer.privacy(), trainer.gopaAccountant(), clip, s, workload);
            if (variant.isPrivate()) {
                calibration.put(ScenarioRun.LEDGER_PRICING, ScenarioRun.ledgerPricing(trainer));
            }
            while (trainer.round() <= lastRound) {
                long round = trainer.round();
                INDArray before = trainer.parameters();
                trainer.step();
                List<TargetPlacement.Placement> now = placements.stream().filter(p -> p.round() == round).toList();
                if (now.isEmpty()) {
                    continue;
                }
                INDArray messages = trainer.lastMessages().dup();
                if (variant == FedAvgVariant.DP_CENTRAL) {
                    RowClipping.clip(messages, config.clipNorm());   // the raw uplinks as the server clipped them into its sum
                }
                INDArray after = trainer.parameters();
                double accuracy = TestAccuracy.of(template, before, workload.test());
                for (TargetPlacement.Placement p : now) {
                    cases.addAll(observe(config, p, template, before, after, messages, gopaGraph, clientStreams,
                            accuracy, workload));
                }
            }
        }
        return new ScenarioRun(algorithm(), epsilon, cases, calibration);
    }

    /** What the run was calibrated to, for the report. */
    private void describe(Map<String, String> calibration, FedAvgConfig config, FedAvgPrivacy privacy, GopaAccountant gopa,
                          double clip, CampaignSettings s, RunWorkload workload) {
        if (variant == FedAvgVariant.FEDAVG) {
            calibration.put("noise", "none (FedAvg, no clipping)");
        } else if (variant == FedAvgVariant.GOPA) {
            calibration.put("accounting", String.format(Locale.ROOT, "user level (a client's update, clipped to S ="
                    + " eta C = %s, replace-one), GOPA's correlated Gaussian with kappa against %s (%s), %d planned"
                    + " rounds, delta %s", clip, gopa.describeAdversary(),
                    privacy.kappa().basis().name().toLowerCase(Locale.ROOT), PLANNED_ROUNDS, s.delta()));
            calibration.put("noise", String.format(Locale.ROOT, "sigma_eta = %.4g, sigma_Delta = %.4g on an update of"
                    + " norm <= %s", config.noiseMultiplier() * clip, config.pairwiseMultiplier() * clip, clip));
        } else {
            double z = config.noiseMultiplier();
            calibration.put("accounting", String.format(Locale.ROOT, "user level (a client's update, clipped to S ="
                    + " eta C = %s, replace-one), Gaussian mechanism per round%s, %d planned rounds, every client in"
                    + " every round, delta %s", clip, variant == FedAvgVariant.DP_LOCAL ? " on each client's message"
                    : " on the sum", PLANNED_ROUNDS, s.delta()));
            calibration.put("noise", String.format(Locale.ROOT, "z = %.4g: noise std %.4g %s", z, z * clip,
                    variant == FedAvgVariant.DP_LOCAL ? "on each update" : "on the sum of the updates"));
        }
        calibration.put("model", String.format(Locale.ROOT, "%d clients, %d examples each, all in every round, one"
                + " local SGD step on one example", CLIENTS, workload.train().size() / CLIENTS));
    }

    private List<AttackCase> observe(FedAvgConfig config, TargetPlacement.Placement p, MultiLayerNetwork template,
                                     INDArray before, INDArray after, INDArray messages, Graph gopaGraph,
                                     SeededNoiseStreams clientStreams, double accuracy, RunWorkload workload) {
        int k = p.party();
        long round = p.round();
        long length = template.numParams();
        Map<String, String> details = Map.of("target_index", Integer.toString(p.target()), "party",
                Integer.toString(k), "local_row", Integer.toString(p.row()), "release", "round " + round + ": client "
                        + k + " stepped on training example " + p.target());
        CaseContext context = new CaseContext(workload.truth(p.target()), round, accuracy, details);
        INDArray own = messages.getRow(k).reshape(1, length);
        List<AttackCase> out = new ArrayList<>();
        for (String observer : observers()) {
            out.add(switch (observer) {
                case "server" -> variant == FedAvgVariant.FEDAVG
                        ? new FedAvgServerObserver().observe(new FedAvgUpload(Mu2Releases.at(template, before),
                        before.reshape(1, length).add(own), config.localRate().at(round), 1, 1, 0.0), context)
                        : new DpFedAvgLocalObserver(config).observe(new ClientMessage(template, before, own, k, round),
                        context);
                case "aggregate" -> {
                    INDArray others = messages.sum(0).reshape(1, length).subi(own).divi(CLIENTS);
                    yield new FedAvgAggregateObserver(config, CLIENTS).observe(new AggregateView(template, before,
                            after, k, round, 1.0 / CLIENTS, others), context);
                }
                case "server + colluders" -> gopa(config, p, template, before, own, gopaGraph, clientStreams, context);
                default -> throw new IllegalStateException(observer);
            });
        }
        return out;
    }

    /** The colluders (two neighbours of the attacked client) remove the pairwise terms they share with it. */
    private static AttackCase gopa(FedAvgConfig config, TargetPlacement.Placement p, MultiLayerNetwork template,
                                   INDArray before, INDArray own, Graph graph, SeededNoiseStreams streams,
                                   CaseContext context) {
        int k = p.party();
        int[] neighbours = graph.neighbours(k);
        int colluding = Math.min(COLLUDERS, neighbours.length - 1);
        INDArray edgeNoise = new PairwiseNoise(graph, DataType.FLOAT).edgeNoise(streams, p.round(),
                template.numParams(), config.pairwiseMultiplier() * config.clipNorm());
        INDArray known = own.mul(0);
        for (int c = 0; c < colluding; c++) {
            int l = neighbours[c];
            INDArray term = edgeNoise.getRow(graph.edgeIndex(k, l)).reshape(1, own.length());
            // Client k adds +u_e on edges to higher ids and -u_e on edges to lower ids.
            known.addi(k < l ? term : term.neg());
        }
        return new GopaObserver(config).observe(new GopaView(new ClientMessage(template, before, own, k, p.round()),
                known, neighbours.length - colluding), context);
    }
}
