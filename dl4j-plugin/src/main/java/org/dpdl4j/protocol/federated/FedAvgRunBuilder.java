package org.dpdl4j.protocol.federated;

import java.util.List;
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
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.MemoryCheck;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PartySplit;
import org.dpdl4j.runtime.TrainingSet;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.runtime.PrivateRunBuilder;

/**
 * Sets up a FedAvg-family run (FedAvg, DP-FedAvg with local or central noise, GOPA): the clients' data (given or
 * split from a training set), client sampling, the noise (calibrated to a target, for GOPA against the worst
 * colluding set, or given), GOPA's pairwise-secret graph (a random k-out graph from the seed), the client and server
 * noise streams, and the ledger.
 */
public final class FedAvgRunBuilder extends PrivateRunBuilder<FedAvgRunBuilder> {
    private FedAvgVariant variant;
    private MultiLayerNetwork template;
    private List<NodeData> data;
    private TrainingSet splitSet;
    private PartySplit split;
    private Integer clients;
    private long rounds;
    private int localSteps = 5;
    private int localBatch = 32;
    private LearningRate localRate;
    private double serverRate = 1.0;
    private double clientRate = 1.0;
    private boolean fixedSizeClients;
    private UpdateWeighting weighting = UpdateWeighting.UNIFORM;
    private double clip = Double.NaN;
    private double noiseMultiplier = Double.NaN;
    private double pairwiseMultiplier = Double.NaN;
    private int gopaK = 3;
    private double colludingFraction;
    private CollusionAnalysis collusion = CollusionAnalysis.worstCase();
    private RunSettings settings;
    private String adversary = "-";
    private GopaAccountant gopa;
    private PlantedClients planted;
    private int verifyCoordinates;

    FedAvgRunBuilder() {
    }

    /** Which protocol of the family: FedAvg, DP-FedAvg with local or central noise, or GOPA (required). */
    public FedAvgRunBuilder variant(FedAvgVariant value) {
        this.variant = Objects.requireNonNull(value, "variant");
        return this;
    }

    /** The network every client trains; its configuration and initial parameters are the global model's (required). */
    public FedAvgRunBuilder model(MultiLayerNetwork value) {
        this.template = Objects.requireNonNull(value, "model");
        return this;
    }

    /** The clients' local datasets. */
    public FedAvgRunBuilder clients(List<NodeData> value) {
        this.data = List.copyOf(value);
        return this;
    }

    /** Splits a training set over {@code count} clients with the run's seed. */
    public FedAvgRunBuilder split(TrainingSet set, PartySplit how, int count) {
        this.splitSet = Objects.requireNonNull(set, "training set");
        this.split = Objects.requireNonNull(how, "split");
        this.clients = count;
        return this;
    }

    /** T, the planned rounds: the noise is calibrated for them (required). */
    public FedAvgRunBuilder rounds(long value) {
        this.rounds = value;
        return this;
    }

    /** L local SGD steps per round (default 5). */
    public FedAvgRunBuilder localSteps(int value) {
        this.localSteps = value;
        return this;
    }

    /** The local mini-batch (default 32); 0 for the client's whole dataset. */
    public FedAvgRunBuilder localBatch(int value) {
        this.localBatch = value;
        return this;
    }

    /** The clients' learning rate for their local steps, constant or by round (required). */
    public FedAvgRunBuilder localRate(LearningRate value) {
        this.localRate = Objects.requireNonNull(value, "local learning rate");
        return this;
    }

    /** The server's step on the averaged update (default 1). */
    public FedAvgRunBuilder serverRate(double value) {
        this.serverRate = value;
        return this;
    }

    /** The fraction of clients in a round (default 1), Poisson (default) or exactly round(q N). */
    public FedAvgRunBuilder clientSampling(double rate, boolean fixedSize) {
        this.clientRate = rate;
        this.fixedSizeClients = fixedSize;
        return this;
    }

    /** Plain FedAvg's weights (default uniform). */
    public FedAvgRunBuilder weighting(UpdateWeighting value) {
        this.weighting = Objects.requireNonNull(value, "weighting");
        return this;
    }

    /** S, the clip of each client's update (private variants). */
    public FedAvgRunBuilder clip(double value) {
        this.clip = value;
        return this;
    }

    /** Given noise multipliers (noise std over S) instead of a target; the pairwise one for GOPA only. */
    public FedAvgRunBuilder noiseMultipliers(double privateMultiplier, double pairwise) {
        this.noiseMultiplier = privateMultiplier;
        this.pairwiseMultiplier = pairwise;
        return this;
    }

    /** GOPA: pairwise secrets with K others on a random K-out graph (default 3). */
    public FedAvgRunBuilder gopaK(int value) {
        this.gopaK = value;
        return this;
    }

    /** GOPA: the fraction of clients colluding with the server (rounded up), and how the colluding set is treated. */
    public FedAvgRunBuilder colluders(double fraction, CollusionAnalysis analysis) {
        this.colludingFraction = fraction;
        this.collusion = Objects.requireNonNull(analysis, "collusion analysis");
        return this;
    }

    /**
     * Clients whose updates are given instead of trained, after the real ones: an audit's canaries (DP-FedAvg with local
     * or central noise). They are sampled, clipped, noised and accounted for as clients, so the calibration and the
     * ledger cover them; without them the run is exactly the run it would be.
     */
    public FedAvgRunBuilder planted(PlantedClients value) {
        this.planted = Objects.requireNonNull(value, "planted clients");
        return this;
    }

    /**
     * GOPA: verify every round, each party proving {@code coordinates} coordinates chosen after all commitments
     * ({@link Integer#MAX_VALUE}: all of them); 0 (the default) does not verify.
     */
    public FedAvgRunBuilder verify(int coordinates) {
        require(coordinates >= 0, "verification proves k >= 1 coordinates per round (0: no verification), got " + coordinates);
        this.verifyCoordinates = coordinates;
        return this;
    }

    /** The settings recorded with the run (in its checkpoint), which a resume compares. */
    public FedAvgRunBuilder settings(RunSettings value) {
        this.settings = Objects.requireNonNull(value, "settings");
        return this;
    }

    /** Who the last built run's guarantee holds against, in words. */
    public String adversary() {
        return adversary;
    }

    /** GOPA's accountant of the last built run (null for the other variants). */
    public GopaAccountant gopa() {
        return gopa;
    }

    /**
     * Sets the run up.
     *
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public FedAvgTrainer build() {
        require(variant != null, "choose the variant (variant(FedAvgVariant.DP_LOCAL), ...)");
        require(template != null, "give the model the server starts from (model(network))");
        requireRunSettings();
        requirePlantedFits();
        String report = null;
        List<NodeData> local = data;
        int real = clientCount();
        int n = real + plantedCount();
        ClientSampling sampling = sampling(clientRate, fixedSizeClients, n);
        DataShape shape = local != null ? DataShape.of(local) : DataShape.of(splitSet, split, real, seed);
        MemoryCheck.require(new FedAvgMemory(variant, ModelFootprint.of(template.getLayerWiseConfigurations()), shape, n, sampling,
                localBatch, gopaK).estimate());
        if (local == null) {
            TrainingSet.Parties parts = splitSet.split(split, clients, seed);
            report = parts.report();
            local = parts.data();
        }
        FedAvgPlan plan = plan(n, sampling);
        gopa = plan.gopa();
        adversary = plan.adversary();
        RunLedger ledger = plan.privacy() == null ? null : ledger(plan.privacy().relation(), noise.isSecure());
        NoiseStreams clientStreams = noise.streams(plan.gopaGraph() != null ? plan.gopaGraph() : Graph.of(n), seed);
        NoiseStreams serverStreams = noise.streams(1, new NoiseKey(seed, "server", 0, 0).seed());
        FedAvgTrainer trainer = new FedAvgTrainer(template, local, plan.config(), clientStreams, serverStreams, plan.gopaGraph(),
                plan.privacy(), ledger, settings != null ? settings : RunSettings.empty(), report, planted);
        trainer.describeAdversary(adversary);
        if (verifyCoordinates > 0) {
            require(variant == FedAvgVariant.GOPA, "only gopa commits to and proves its rounds; drop the verification");
            double s = plan.config().clipNorm();
            trainer.verifyWith(new SpotCheckedGopa(plan.gopaGraph(), s, plan.config().noiseMultiplier() * s,
                    plan.config().pairwiseMultiplier() * s, verifyCoordinates, new java.security.SecureRandom()));
        }
        return trainer;
    }

    /**
     * The ledger {@link #build()}'s run will hold after its planned rounds, with the relation it is priced under, worked out from the settings and the number
     * of clients: no model is needed and no noise stream is opened (a split is drawn for its sizes only, to refuse
     * one that {@link #build()} refuses). The settings are checked as {@link #build()} checks them.
     *
     * @return empty for plain FedAvg, which has no guarantee
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public Optional<PlannedLedger> plannedLedger() {
        require(variant != null, "choose the variant (variant(FedAvgVariant.DP_LOCAL), ...)");
        requireRunSettings();
        requirePlantedFits();
        int n = clientCount() + plantedCount();
        if (data == null) {
            splitSet.partySizes(split, clients, seed);
        }
        return plan(n, sampling(clientRate, fixedSizeClients, n)).plannedLedger(noise.isSecure());
    }

    private void requireRunSettings() {
        require((data == null) != (split == null), "give the clients' data either as clients(list) or as split(set, how, count)");
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
        if (data != null) {
            return data.size();
        }
        require(clients != null && clients >= 1, "give the number of clients, at least 1");
        require(clients <= splitSet.size(), clients + " clients is more than the " + splitSet.size()
                + " training examples: every client needs at least one example; use at most " + splitSet.size() + " clients");
        return clients;
    }

    /**
     * The configuration, its noise calibrated, with GOPA's graph and accountant and the analysis of one round, for
     * {@code n} clients: what {@link #build()} and {@link #plannedLedger()} share.
     */
    private FedAvgPlan plan(int n, ClientSampling sampling) {
        double s = Double.POSITIVE_INFINITY;
        double z = 0;
        double zPairwise = 0;
        Graph gopaGraph = null;
        GopaAccountant accountant = null;
        if (variant.isPrivate()) {
            require(clip > 0 && Double.isFinite(clip), variant.cliName() + " needs a positive finite bound S on each client's update"
                    + " (clip(S))");
            boolean byTarget = !Double.isNaN(targetEpsilon);
            require(byTarget != !Double.isNaN(noiseMultiplier), variant.cliName() + " needs either a target (target(epsilon, delta))"
                    + " or a noise multiplier (noiseMultipliers(z, ...)), not both and not neither");
            s = clip;
            if (variant == FedAvgVariant.GOPA) {
                require(clientRate == 1, "GOPA needs every party of its graph in every round (its pairwise noise only cancels over"
                        + " the whole graph); use no client sampling (rate 1)");
                gopaGraph = Topologies.randomKOut(n, gopaK, new NoiseKey(seed, "gopa-graph", 0, 0).seed());
                accountant = new GopaAccountant(gopaGraph, GopaAccountant.colludersOf(colludingFraction, n), collusion);
                if (byTarget) {
                    FedAvgPrivacy.GopaMultipliers m = FedAvgPrivacy.calibrateGopa(accountant, s, rounds, targetEpsilon, delta, accountants);
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
                z = byTarget ? FedAvgPrivacy.calibrate(variant, sampling, n, rounds, targetEpsilon, delta, accountants) : noiseMultiplier;
            }
        } else {
            require(Double.isNaN(targetEpsilon) && Double.isNaN(noiseMultiplier) && Double.isNaN(clip),
                    "plain FedAvg neither clips nor adds noise: a clip, a target or a noise multiplier do not apply");
        }
        FedAvgConfig config = new FedAvgConfig(variant, rounds, localSteps, localBatch, localRate, serverRate, sampling, weighting,
                s, z, zPairwise, seed);
        FedAvgPrivacy privacy = variant.isPrivate() ? FedAvgPrivacy.of(config, n, accountant) : null;
        String who = accountant != null ? accountant.describeAdversary() : variant == FedAvgVariant.DP_LOCAL
                ? "the server and eavesdroppers"
                : variant == FedAvgVariant.DP_CENTRAL ? "anyone who sees the broadcast models (the server is trusted)" : "-";
        return new FedAvgPlan(config, privacy, gopaGraph, accountant, who);
    }

    /** Every client (rate 1), exactly round(q N) of them, or each with probability q. */
    static ClientSampling sampling(double rate, boolean fixedSize, int clients) {
        return rate == 1 ? new ClientSampling.Everyone()
                : fixedSize ? new ClientSampling.FixedSize(Math.max(1, (int) Math.round(rate * clients)))
                : new ClientSampling.Poisson(rate);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
