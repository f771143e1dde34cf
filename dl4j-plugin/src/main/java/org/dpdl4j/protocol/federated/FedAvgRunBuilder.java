package org.dpdl4j.protocol.federated;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PartySplit;
import org.dpdl4j.runtime.TrainingSet;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.runtime.PartySource;
import org.dpdl4j.runtime.PrivateRunBuilder;

/**
 * Assembles the {@link FedAvgRunSpec} of a FedAvg-family run from Java, then builds or prices it through the spec, as
 * the protocol's settings do. It sets up a FedAvg-family run (FedAvg, DP-FedAvg with local or central noise, GOPA): the clients' data (given or
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

    /** The fraction of clients in a round (default 1), Poisson (default) or exactly q N (which must be a whole number). */
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

    /**
     * The description of the run these setters make: what {@link #build()} and {@link #plannedLedger()} go through,
     * as the protocol's settings do.
     */
    public FedAvgRunSpec spec() {
        require(data == null || split == null, "give the clients' data either as clients(list) or as split(set, how, count)");
        PartySource source = data != null ? PartySource.given(data) : split != null ? PartySource.split(splitSet, split) : null;
        return new FedAvgRunSpec(variant, source, data != null ? null : clients, rounds, localSteps, localBatch, localRate,
                serverRate, clientRate, fixedSizeClients, weighting, clip, noiseMultiplier, pairwiseMultiplier, gopaK,
                colludingFraction, collusion, privacySetup(), planted, verifyCoordinates);
    }

    /**
     * Sets the run up ({@link FedAvgRunSpec#create}).
     *
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public FedAvgTrainer build() {
        return spec().create(template, settings);
    }

    /**
     * The ledger {@link #build()}'s run will hold after its planned rounds ({@link FedAvgRunSpec#plannedLedger}): no
     * model is needed and no noise stream is opened.
     *
     * @return empty for plain FedAvg, which has no guarantee
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public Optional<PlannedLedger> plannedLedger() {
        return spec().plannedLedger();
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
