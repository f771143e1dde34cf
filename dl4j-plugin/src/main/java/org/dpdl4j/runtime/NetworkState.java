package org.dpdl4j.runtime;

import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The state of a DL4J network that a run continues from: its parameters, its updater's state (Adam's moments, ...)
 * and its iteration and epoch counts, as {@link RunState} entries. For a {@link MultiLayerNetwork} and a
 * {@link ComputationGraph} alike.
 */
public final class NetworkState {
    private NetworkState() {
    }

    /** The network's state, to which a run may add its own entries. */
    public static RunState.Builder of(MultiLayerNetwork net) {
        return of((Model) net);
    }

    /**
     * The state of a {@link MultiLayerNetwork} or a {@link ComputationGraph}.
     *
     * @throws IllegalArgumentException for another kind of model
     */
    public static RunState.Builder of(Model model) {
        RunState.Builder s = RunState.builder().array("params", model.params());
        INDArray updater = updaterState(model);
        if (updater != null) {
            s.array("updater", updater);
        }
        return s.number("iteration", counters(model)[0]).number("epoch", counters(model)[1]);
    }

    /**
     * Puts a saved state back into the network. Everything is read and checked before anything is assigned, so a
     * state that does not fit (another model, another updater) changes nothing.
     *
     * @throws IllegalArgumentException naming what does not fit
     */
    public static void restore(MultiLayerNetwork net, RunState state) {
        restore((Model) net, state);
    }

    /** As {@link #restore(MultiLayerNetwork, RunState)}, for a {@link MultiLayerNetwork} or a {@link ComputationGraph}. */
    public static void restore(Model model, RunState state) {
        INDArray params = state.array("params", model.params().shape());
        INDArray updater = updaterState(model);
        INDArray savedUpdater = updater == null ? null : state.array("updater", updater.shape());
        int iteration = (int) state.longValue("iteration");
        int epoch = (int) state.longValue("epoch");
        model.params().assign(params);
        if (updater != null) {
            updater.assign(savedUpdater);
        }
        if (model instanceof ComputationGraph graph) {
            graph.getConfiguration().setIterationCount(iteration);
            graph.getConfiguration().setEpochCount(epoch);
        } else {
            ((MultiLayerNetwork) model).setIterationCount(iteration);
            ((MultiLayerNetwork) model).setEpochCount(epoch);
        }
    }

    private static INDArray updaterState(Model model) {
        if (model instanceof MultiLayerNetwork net) {
            return net.getUpdater().getStateViewArray();
        }
        if (model instanceof ComputationGraph graph) {
            return graph.getUpdater().getStateViewArray();
        }
        throw new IllegalArgumentException("network state: a MultiLayerNetwork or a ComputationGraph is needed, got "
                + model.getClass().getSimpleName());
    }

    private static long[] counters(Model model) {
        return model instanceof ComputationGraph graph
                ? new long[]{graph.getIterationCount(), graph.getEpochCount()}
                : new long[]{((MultiLayerNetwork) model).getIterationCount(), ((MultiLayerNetwork) model).getEpochCount()};
    }
}
