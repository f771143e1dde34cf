package org.dpdl4j.audit;

import org.dpdl4j.protocol.federated.ClientSampling;
import org.dpdl4j.protocol.federated.FedAvgConfig;
import org.dpdl4j.protocol.federated.FedAvgTrainer;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.runtime.RunListener;
import org.dpdl4j.runtime.TrainingRun;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The audit of DP-FedAvg with central noise through the released aggregate: the observer sees only the global model of
 * every round, from which it recovers the noisy sum the server released ({@code (theta_t+1 - theta_t) * divisor /
 * serverRate}, the divisor being the expected number of participants, which it knows). On a canary's coordinate the sum
 * is the canary's share, when the server sampled it, plus the noise; each canary's score is its log-likelihood ratio
 * over the rounds ({@link CanaryClientScores}), with q the round's probability that a given client takes part.
 */
public final class AggregateObserverAudit implements RunListener {
    private final CanaryClients canaries;
    private final CanaryClientScores scores;
    private final int[] everyCanary;
    private final int[] coordinates;
    private final double sigma;
    private final double sumPerModelStep;
    private final double participation;
    private INDArray previous;

    /**
     * @param run      the audited run, built with {@code canaries} planted, before its first round
     * @param canaries its canary clients
     */
    public AggregateObserverAudit(FedAvgTrainer run, CanaryClients canaries) {
        FedAvgConfig config = run.config();
        if (config.variant() != FedAvgVariant.DP_CENTRAL) {
            throw new IllegalArgumentException("the aggregate observer audits dp-fedavg-central, whose server noises the sum"
                    + " it releases; this run is " + config.variant().cliName());
        }
        if (run.privacy().relation() != canaries.relation()) {
            throw new IllegalArgumentException("the run's ledger treats " + run.privacy().relation() + " datasets as"
                    + " neighbours but the canaries were drawn for " + canaries.relation() + "; draw them for the run's relation");
        }
        if (run.clientCount() - run.realClientCount() != canaries.count()) {
            throw new IllegalArgumentException("the run has " + (run.clientCount() - run.realClientCount())
                    + " planted clients but the canaries make " + canaries.count() + "; plant these canaries in the run");
        }
        if (run.completedSteps() != 0) {
            throw new IllegalArgumentException("the aggregate observer must see the model before the first round; attach it"
                    + " to a new run");
        }
        this.canaries = canaries;
        this.scores = new CanaryClientScores(canaries);
        this.everyCanary = java.util.stream.IntStream.range(0, canaries.canaries()).toArray();
        this.coordinates = canaries.coordinates();
        this.sigma = config.noiseMultiplier() * config.clipNorm();
        this.sumPerModelStep = config.sampling().expectedCount(run.clientCount()) / config.serverRate();
        this.participation = participation(config.sampling(), run.clientCount());
        this.previous = onCanaries(run);
    }

    /** The probability that a given client takes part in a round. */
    static double participation(ClientSampling sampling, int clients) {
        if (sampling instanceof ClientSampling.Poisson poisson) {
            return poisson.rate();
        }
        if (sampling instanceof ClientSampling.FixedSize fixed) {
            return (double) fixed.count() / clients;
        }
        return 1.0;
    }

    @Override
    public void onStep(TrainingRun run) {
        INDArray now = onCanaries((FedAvgTrainer) run);
        INDArray x = now.sub(previous).muli(sumPerModelStep / sigma);
        previous = now;
        scores.add(everyCanary, x, canaries.norm() / sigma, participation);
    }

    /** The global model's canary coordinates, [m, 1] in double. */
    private INDArray onCanaries(FedAvgTrainer run) {
        INDArray theta = run.parameters();
        return Nd4j.pullRows(theta.reshape(theta.length(), 1), 1, coordinates).castTo(DataType.DOUBLE);
    }

    /** Each canary's score so far. */
    public double[] scores() {
        return scores.scores();
    }

    /** The probability q that a given client takes part in a round, as the scores assume it. */
    public double participation() {
        return participation;
    }
}
