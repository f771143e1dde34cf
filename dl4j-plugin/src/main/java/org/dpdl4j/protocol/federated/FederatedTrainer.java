package org.dpdl4j.protocol.federated;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.Map;

/**
 * A server-coordinated training run whose parties' models live as rows of stacked tensors: DP-mu^2-FL
 * ({@link Mu2Trainer}), FedAvg and its private variants ({@link FedAvgTrainer}), and the token-passing
 * random-walk SGD ({@link RandomWalkSgd}). One {@link #step()} is one round (one token hop for the random
 * walk). The state is a few named arrays plus the round counter, which is all a {@link FederatedCheckpoint}
 * stores: every random stream is keyed by (seed, purpose, party, round), so a resumed seeded run continues
 * exactly as an uninterrupted one.
 */
public sealed interface FederatedTrainer extends AutoCloseable permits Mu2Trainer, FedAvgTrainer, RandomWalkSgd {

    /** Runs one round. */
    void step();

    /** Runs {@code count} rounds. */
    default void run(long count) {
        for (long k = 0; k < count; k++) {
            step();
        }
    }

    /** Rounds done so far. */
    long round();

    /** The number of rounds the run was configured for. */
    long plannedRounds();

    /** The current global model as a [p] vector in DL4J's flattened layout (a copy). */
    INDArray model();

    /** Mean training loss measured during the last round, before its update (NaN before the first). */
    double lastLoss();

    /** The network whose parameter layout the rows use; load {@link #model()} into it to evaluate. */
    MultiLayerNetwork template();

    /** Algorithm name, e.g. {@code mu2-untrusted}; a checkpoint refuses to resume a different one. */
    String algorithm();

    /** Master seed of the run's seeded streams. */
    long seed();

    /** The arrays that, with {@link #round()}, define the run's state (copies). */
    Map<String, INDArray> state();

    /** Restores the state saved by {@link #state()} at the given round. */
    void restore(long round, Map<String, INDArray> state);

    @Override
    default void close() {
    }
}
