package org.dpdl4j.runtime;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The state of a DL4J network that a run continues from: its parameters, its updater's state (Adam's moments, ...)
 * and its iteration and epoch counts, as {@link RunState} entries.
 */
public final class NetworkState {
    private NetworkState() {
    }

    /** The network's state, to which a run may add its own entries. */
    public static RunState.Builder of(MultiLayerNetwork net) {
        RunState.Builder s = RunState.builder().array("params", net.params());
        INDArray updater = net.getUpdater().getStateViewArray();
        if (updater != null) {
            s.array("updater", updater);
        }
        return s.number("iteration", net.getIterationCount()).number("epoch", net.getEpochCount());
    }

    /**
     * Puts a saved state back into the network. Everything is read and checked before anything is assigned, so a
     * state that does not fit (another model, another updater) changes nothing.
     *
     * @throws IllegalArgumentException naming what does not fit
     */
    public static void restore(MultiLayerNetwork net, RunState state) {
        INDArray params = state.array("params", net.params().shape());
        INDArray updater = net.getUpdater().getStateViewArray();
        INDArray savedUpdater = updater == null ? null : state.array("updater", updater.shape());
        int iteration = (int) state.longValue("iteration");
        int epoch = (int) state.longValue("epoch");
        net.params().assign(params);
        if (updater != null) {
            updater.assign(savedUpdater);
        }
        net.setIterationCount(iteration);
        net.setEpochCount(epoch);
    }
}
