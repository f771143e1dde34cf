package org.dpdl4j.optim;

import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.optimize.api.BaseTrainingListener;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * An exponential moving average of a network's parameters over its training steps, kept as a DL4J listener, so it
 * works with {@link PrivateTrainer} and with DL4J's own {@code fit} alike. After step {@code t} with parameters
 * {@code θ_1..θ_t} it holds the normalised average {@code Σ_i β^(t-i) θ_i / Σ_i β^(t-i)} (the usual average started
 * at zero and divided by {@code 1 - β^t}), so it does not depend on how the network was initialised.
 *
 * <p>Privacy: DP-SGD's accounting bounds the release of every iterate, and this average is a function of the
 * iterates alone, so evaluating or publishing it costs nothing beyond the run's ledger (post-processing). It reads the
 * parameters when the step's {@code iterationDone} is called, which is after the update and before DL4J applies
 * parameter constraints; a network with constraints averages its unconstrained iterates.
 *
 * <pre>{@code
 * ParameterAverage average = ParameterAverage.exponential(0.999);
 * net.addListeners(average);
 * for (int e = 0; e < epochs; e++) trainer.fitEpoch();
 * MultiLayerNetwork averaged = average.copyOf(net);   // evaluate this one
 * }</pre>
 */
public final class ParameterAverage extends BaseTrainingListener {
    private final double decay;
    private INDArray average;
    private long steps;

    private ParameterAverage(double decay) {
        this.decay = decay;
    }

    /**
     * An average with weight {@code decay^k} on the parameters of {@code k} steps ago.
     *
     * @param decay in [0, 1); 0 keeps the last iterate, values near 1 average over about {@code 1 / (1 - decay)} steps
     */
    public static ParameterAverage exponential(double decay) {
        if (!(decay >= 0 && decay < 1)) {
            throw new IllegalArgumentException("the decay of a parameter average must lie in [0, 1), got " + decay
                    + "; 0.999 averages over about the last 1,000 steps");
        }
        return new ParameterAverage(decay);
    }

    @Override
    public void iterationDone(Model model, int iteration, int epoch) {
        record(model.params());
    }

    /** Adds one step's parameters (what {@link #iterationDone} does). */
    public void record(INDArray params) {
        INDArray flat = params.reshape(params.length());
        steps++;
        if (average == null) {
            average = flat.dup();
            return;
        }
        if (average.length() != flat.length()) {
            throw new IllegalStateException("the network has " + flat.length() + " parameters but this average holds "
                    + average.length() + ": use one ParameterAverage per network");
        }
        // The normalised average moves toward the new iterate by (1 - β) / (1 - β^t).
        double w = (1 - decay) / (1 - Math.pow(decay, steps));
        average.muli(1 - w);
        Nd4j.getBlasWrapper().level1().axpy(flat.length(), w, flat, average);
    }

    /** The decay this average was made with. */
    public double decay() {
        return decay;
    }

    /** Steps recorded so far. */
    public long steps() {
        return steps;
    }

    /**
     * A copy of the average (flat, the network's parameter order).
     *
     * @throws IllegalStateException before the first step
     */
    public INDArray parameters() {
        if (average == null) {
            throw new IllegalStateException("no step has been recorded yet: add this average to the network's"
                    + " listeners before training");
        }
        return average.dup();
    }

    /** A copy of {@code net} whose parameters are the average; {@code net} itself is left as it is. */
    public MultiLayerNetwork copyOf(MultiLayerNetwork net) {
        MultiLayerNetwork copy = net.clone();
        copy.setParams(parameters().reshape(1, average.length()).castTo(copy.params().dataType()));
        return copy;
    }

    /** A copy of {@code graph} whose parameters are the average; {@code graph} itself is left as it is. */
    public ComputationGraph copyOf(ComputationGraph graph) {
        ComputationGraph copy = graph.clone();
        copy.setParams(parameters().reshape(1, average.length()).castTo(copy.params().dataType()));
        return copy;
    }
}
