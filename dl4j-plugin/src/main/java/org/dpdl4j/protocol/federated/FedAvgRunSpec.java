package org.dpdl4j.protocol.federated;

import java.util.Objects;
import java.util.Optional;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.protocol.federated.verification.SpotCheckedGopa;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.MemoryCheck;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.PartySource;
import org.dpdl4j.runtime.PrivacySetup;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * The one description of a FedAvg-family run (FedAvg, DP-FedAvg with local or central noise, GOPA) apart from the
 * network the server starts from. {@link FedAvgRunBuilder} assembles it from Java, {@link FedAvgProtocol#config} from
 * a command line's settings; {@link #plannedLedger} prices it and {@link #create} builds it, both through
 * {@link #plan}: the checks, the calibration of the noise, GOPA's graph and accountant, and the analysis of one round.
 *
 * @param variant            which protocol of the family
 * @param data               where the clients' data comes from
 * @param clients            the number of clients a training set is split over, null when the data is given
 * @param rounds             T, the planned rounds the noise is calibrated for
 * @param localSteps         L local SGD steps per round
 * @param localBatch         the local mini-batch, 0 for a client's whole dataset
 * @param localRate          the clients' learning rate
 * @param serverRate         the server's step on the averaged update
 * @param clientRate         the fraction of clients in a round
 * @param fixedSizeClients   exactly q N clients a round (a whole number) instead of Poisson sampling
 * @param weighting          plain FedAvg's weights
 * @param clip               S, the clip of each client's update (NaN for plain FedAvg)
 * @param noiseMultiplier    the given noise std over S, NaN when calibrated to the target
 * @param pairwiseMultiplier GOPA's given pairwise noise std over S, NaN when calibrated
 * @param gopaK              GOPA: pairwise secrets with K others on a random K-out graph
 * @param colludingFraction  GOPA: the fraction of clients colluding with the server (rounded up)
 * @param collusion          GOPA: how the colluding set is treated
 * @param privacy            the shared privacy set-up: target, delta, budget, noise kind, seed, accountant
 * @param planted            audit clients after the real ones, null in every ordinary run
 * @param verifyCoordinates  GOPA: coordinates each party proves per round, 0 for no verification
 */
public record FedAvgRunSpec(FedAvgVariant variant, PartySource data, Integer clients, long rounds, int localSteps,
                            int localBatch, LearningRate localRate, double serverRate, double clientRate,
                            boolean fixedSizeClients, UpdateWeighting weighting, double clip, double noiseMultiplier,
                            double pairwiseMultiplier, int gopaK, double colludingFraction, CollusionAnalysis collusion,
                            PrivacySetup privacy, PlantedClients planted, int verifyCoordinates) {
    public FedAvgRunSpec {
        require(variant != null, "choose the variant (variant(FedAvgVariant.DP_LOCAL), ...)");
        Objects.requireNonNull(weighting, "weighting");
        Objects.requireNonNull(collusion, "collusion analysis");
        Objects.requireNonNull(privacy, "privacy set-up");
        require(verifyCoordinates >= 0, "verification proves k >= 1 coordinates per round (0: no verification), got "
                + verifyCoordinates);
    }

    /**
     * The ledger {@link #create}'s run will hold after its planned rounds, with the relation it is priced under, from
     * the description and the number of clients: no model is needed and no noise stream is opened (a split is drawn
     * for its sizes only, to refuse one that {@link #create} refuses). Checked as {@link #create} checks it.
     *
     * @return empty for plain FedAvg, which has no guarantee
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public Optional<PlannedLedger> plannedLedger() {
        requireRunSettings();
        requirePlantedFits();
        int real = clientCount();
        int n = real + plantedCount();
        data.sizes(real, privacy.seed());
        return plan(n, sampling(n)).plannedLedger(privacy.noise().isSecure());
    }

    /**
     * Sets the run up.
     *
     * @param template the network every client trains; its configuration and initial parameters are the global model's
     * @param recorded the settings recorded with the run (in its checkpoint), which a resume compares; null for none
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public FedAvgTrainer create(MultiLayerNetwork template, RunSettings recorded) {
        require(template != null, "give the model the server starts from (model(network))");
        requireRunSettings();
        requirePlantedFits();
        long seed = privacy.seed();
        int real = clientCount();
        int n = real + plantedCount();
        ClientSampling sampling = sampling(n);
        MemoryCheck.require(new FedAvgMemory(variant, ModelFootprint.of(template.getLayerWiseConfigurations()),
                data.shape(real, seed), n, sampling, localBatch, gopaK).estimate());
        PartySource.Local local = data.local(real, seed);
        FedAvgPlan plan = plan(n, sampling);
        RunLedger ledger = plan.privacy() == null ? null : privacy.ledger(plan.privacy().relation(), privacy.noise().isSecure());
        NoiseStreams clientStreams = privacy.noise().streams(plan.gopaGraph() != null ? plan.gopaGraph() : Graph.of(n), seed);
        NoiseStreams serverStreams = privacy.noise().streams(1, new NoiseKey(seed, "server", 0, 0).seed());
        FedAvgTrainer trainer = new FedAvgTrainer(template, local.data(), plan.config(), clientStreams, serverStreams,
                plan.gopaGraph(), plan.privacy(), ledger, recorded != null ? recorded : adversarySettings(), local.report(),
                planted);
        trainer.describeAdversary(plan.adversary(), plan.gopa());
        if (verifyCoordinates > 0) {
            require(variant == FedAvgVariant.GOPA, "only gopa commits to and proves its rounds; drop the verification");
            double s = plan.config().clipNorm();
            trainer.verifyWith(new SpotCheckedGopa(plan.gopaGraph(), s, plan.config().noiseMultiplier() * s,
                    plan.config().pairwiseMultiplier() * s, verifyCoordinates, new java.security.SecureRandom()));
        }
        return trainer;
    }

    private void requireRunSettings() {
        require(data != null, "give the clients' data either as clients(list) or as split(set, how, count)");
        require(rounds >= 1, "give the number of rounds, at least 1");
        require(localRate != null, "give the clients' learning rate (localRate(...))");
        require(clientRate > 0 && clientRate <= 1, "the fraction of clients per round must lie in (0, 1], got " + clientRate);
    }

    private int plantedCount() {
        return planted == null ? 0 : planted.count();
    }

    private void requirePlantedFits() {
        require(planted == null || variant == FedAvgVariant.DP_LOCAL || variant == FedAvgVariant.DP_CENTRAL,
                "planted clients audit DP-FedAvg with local or central noise; " + variant.cliName() + " takes none");
    }

    /** The number of clients with data, checked against the examples when the data is split. */
    private int clientCount() {
        if (data.count().isPresent()) {
            return data.count().getAsInt();
        }
        PartySource.Split split = (PartySource.Split) data;
        require(clients != null && clients >= 1, "give the number of clients, at least 1");
        require(clients <= split.set().size(), clients + " clients is more than the " + split.set().size()
                + " training examples: every client needs at least one example; use at most " + split.set().size() + " clients");
        return clients;
    }

    private ClientSampling sampling(int n) {
        return sampling(clientRate, fixedSizeClients, n);
    }

    /**
     * Every client (rate 1), exactly q N of them, or each with probability q. A fixed-size rate must pick a whole
     * number of clients: the run would otherwise take another rate than the one asked for.
     */
    static ClientSampling sampling(double rate, boolean fixedSize, int clients) {
        if (rate == 1) {
            return new ClientSampling.Everyone();
        }
        if (!fixedSize) {
            return new ClientSampling.Poisson(rate);
        }
        long count = Math.round(rate * clients);
        if (count < 1 || Math.abs(rate * clients - count) > 1e-9 * clients) {
            throw new IllegalArgumentException(fixedSizeRefusal(rate, clients));
        }
        return new ClientSampling.FixedSize((int) count);
    }

    /** Why a fixed-size client rate that picks no whole number of the clients is refused, naming the nearest valid rates. */
    static String fixedSizeRefusal(double rate, int clients) {
        if (clients == 1) {
            return "fixed-size client sampling of 1 client can only take it in every round; use client rate 1, or more clients";
        }
        long below = Math.max(1, (long) Math.floor(rate * clients));
        long above = Math.min(clients, below + 1);
        String nearest = below == above || above == clients ? rate(below, clients) : rate(below, clients) + " or " + rate(above, clients);
        return "fixed-size client sampling takes exactly q x " + clients + " clients a round, and rate " + rate + " gives "
                + (rate * clients) + ", not a whole number from 1 to " + (clients - 1) + "; use a rate of k/" + clients
                + ", e.g. " + nearest;
    }

    private static String rate(long k, int clients) {
        return java.math.BigDecimal.valueOf(k).divide(java.math.BigDecimal.valueOf(clients), java.math.MathContext.DECIMAL64)
                .stripTrailingZeros().toPlainString();
    }

    /**
     * The configuration, its noise calibrated, with GOPA's graph and accountant and the analysis of one round, for
     * {@code n} clients: what {@link #create} and {@link #plannedLedger} share.
     */
    private FedAvgPlan plan(int n, ClientSampling sampling) {
        double s = Double.POSITIVE_INFINITY;
        double z = 0;
        double zPairwise = 0;
        Graph gopaGraph = null;
        GopaAccountant accountant = null;
        long seed = privacy.seed();
        if (variant.isPrivate()) {
            require(clip > 0 && Double.isFinite(clip), variant.cliName() + " needs a positive finite bound S on each client's update"
                    + " (clip(S))");
            boolean byTarget = privacy.byTarget();
            require(byTarget != !Double.isNaN(noiseMultiplier), variant.cliName() + " needs either a target (target(epsilon, delta))"
                    + " or a noise multiplier (noiseMultipliers(z, ...)), not both and not neither");
            s = clip;
            if (variant == FedAvgVariant.GOPA) {
                require(clientRate == 1, "GOPA needs every party of its graph in every round (its pairwise noise only cancels over"
                        + " the whole graph); use no client sampling (rate 1)");
                gopaGraph = Topologies.randomKOut(n, gopaK, new NoiseKey(seed, "gopa-graph", 0, 0).seed());
                accountant = new GopaAccountant(gopaGraph, GopaAccountant.colludersOf(colludingFraction, n), collusion);
                if (byTarget) {
                    FedAvgPrivacy.GopaMultipliers m = FedAvgPrivacy.calibrateGopa(accountant, s, rounds, privacy.targetEpsilon(),
                            privacy.delta(), privacy.accountants());
                    z = m.noise();
                    zPairwise = m.pairwise();
                } else {
                    require(!Double.isNaN(pairwiseMultiplier), "GOPA with a given noise multiplier also needs the pairwise one"
                            + " (sigma_Delta / S)");
                    z = noiseMultiplier;
                    zPairwise = pairwiseMultiplier;
                }
            } else {
                require(Double.isNaN(pairwiseMultiplier) || pairwiseMultiplier == 0, variant.cliName() + " adds no pairwise noise");
                z = byTarget ? FedAvgPrivacy.calibrate(variant, sampling, n, rounds, privacy.targetEpsilon(), privacy.delta(),
                        privacy.accountants()) : noiseMultiplier;
            }
        } else {
            require(!privacy.byTarget() && Double.isNaN(noiseMultiplier) && Double.isNaN(clip),
                    "plain FedAvg neither clips nor adds noise: a clip, a target or a noise multiplier do not apply");
        }
        FedAvgConfig config = new FedAvgConfig(variant, rounds, localSteps, localBatch, localRate, serverRate, sampling, weighting,
                s, z, zPairwise, seed);
        FedAvgPrivacy analysis = variant.isPrivate() ? FedAvgPrivacy.of(config, n, accountant) : null;
        String who = accountant != null ? accountant.describeAdversary() : variant == FedAvgVariant.DP_LOCAL
                ? "the server and eavesdroppers"
                : variant == FedAvgVariant.DP_CENTRAL ? "anyone who sees the broadcast models (the server is trusted)" : "-";
        return new FedAvgPlan(config, analysis, gopaGraph, accountant, who);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * What a checkpoint of a run built without command-line settings records of GOPA's adversary (the colluders and how
     * they are analysed), so that a resume cannot change who the ledger's epsilon holds against.
     */
    private RunSettings adversarySettings() {
        if (variant != FedAvgVariant.GOPA) {
            return RunSettings.empty();
        }
        return RunSettings.empty().with(FederatedOptions.COLLUDING_FRACTION, colludingFraction)
                .with(FederatedOptions.COLLUDING_SETS, collusion instanceof CollusionAnalysis.Sampled sampled
                        ? "sampled:" + sampled.sets() : "worst");
    }
}
