package org.dpdl4j.attacks.inversion;

import java.util.List;
import org.dpdl4j.attacks.network.LayerGradient;
import org.dpdl4j.attacks.network.OutputHead;
import org.dpdl4j.attacks.network.Stage;
import org.dpdl4j.attacks.network.StageActivation;
import org.dpdl4j.attacks.network.TargetNetwork;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * iDLG label recovery from the gradient of one example (Zhao, Mopuri, Bilen 2020). The output-layer gradient is
 * {@code dL/db_c = p_c - y_c} and {@code dL/dW[:, c] = h (p_c - y_c)}: with a one-hot label only the true class
 * has a negative bias gradient, and, when the inputs {@code h} of the output layer are non-negative (after a
 * sigmoid or ReLU), only its weight column has a negative sum. For one sigmoid output, the label is 1 exactly
 * when {@code p - y < 0}. Only the sign matters, so any positive scale of the observation is harmless.
 */
public final class LabelRecovery {
    private LabelRecovery() {
    }

    /**
     * The label of the single example behind the gradient estimate.
     *
     * @param gradient per-stage gradient, or the observation times an unknown positive factor
     * @throws IllegalArgumentException when the output layer has no bias and its inputs may be negative, or the
     *                                  network has several sigmoid outputs (multi-label)
     */
    public static int recover(TargetNetwork network, List<LayerGradient> gradient) {
        int last = network.stages().size() - 1;
        LayerGradient output = gradient.get(last);
        INDArray signal;
        if (output.hasBias()) {
            signal = output.bias().castTo(DataType.DOUBLE).reshape(output.bias().length());
        } else {
            requireNonNegativeFeatures(network);
            signal = output.weights().castTo(DataType.DOUBLE).sum(0);
        }
        if (network.head() == OutputHead.SIGMOID_CROSS_ENTROPY) {
            if (signal.length() != 1) {
                throw new IllegalArgumentException("label recovery needs one label per example; the network has "
                        + signal.length() + " independent sigmoid outputs (multi-label)");
            }
            return signal.getDouble(0) < 0 ? 1 : 0;
        }
        return argMin(signal);
    }

    /**
     * The labels of a batch of {@code batch} examples from the output layer's bias gradient, the mean of
     * {@code p_i - y_i}: a class present in the batch pulls its entry down by about {@code 1/batch} per example, so the
     * {@code batch} most negative entries name the classes (Wainakh et al.'s count for distinct labels; a class
     * repeated in the batch is read once, and the rest filled with the next most negative entries). For one example
     * this is {@link #recover}.
     *
     * @throws IllegalArgumentException when the labels cannot be read: no output bias with a batch, a sigmoid head with
     *                                  a batch, or more examples than classes
     */
    public static int[] recoverBatch(TargetNetwork network, List<LayerGradient> gradient, int batch) {
        if (batch == 1) {
            return new int[] {recover(network, gradient)};
        }
        LayerGradient output = gradient.get(network.stages().size() - 1);
        if (!output.hasBias() || network.head() != OutputHead.SOFTMAX_CROSS_ENTROPY) {
            throw new IllegalArgumentException("reading the labels of a batch needs a softmax output layer with a bias;"
                    + " this network has " + (output.hasBias() ? network.head() : "no output bias"));
        }
        double[] signal = output.bias().castTo(DataType.DOUBLE).toDoubleVector();
        if (batch > signal.length) {
            throw new IllegalArgumentException("a batch of " + batch + " examples has repeated classes among only "
                    + signal.length + "; their labels cannot all be read from the bias gradient");
        }
        Integer[] order = new Integer[signal.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Double.compare(signal[a], signal[b]));
        int[] labels = new int[batch];
        for (int i = 0; i < batch; i++) {
            labels[i] = order[i];
        }
        return labels;
    }

    private static int argMin(INDArray v) {
        int best = 0;
        for (int i = 1; i < v.length(); i++) {
            if (v.getDouble(i) < v.getDouble(best)) {
                best = i;
            }
        }
        return best;
    }

    private static void requireNonNegativeFeatures(TargetNetwork network) {
        List<Stage> stages = network.stages();
        if (stages.size() < 2) {
            throw new IllegalArgumentException("the output layer has no bias and takes the raw input, whose sign is not"
                    + " known; label recovery from weight signs needs non-negative features (sigmoid or ReLU before the"
                    + " output layer) or an output bias");
        }
        StageActivation before = stages.get(stages.size() - 2).activation();
        if (before != StageActivation.SIGMOID && before != StageActivation.RELU) {
            throw new IllegalArgumentException("the output layer has no bias and its inputs come from a "
                    + before.name().toLowerCase(java.util.Locale.ROOT) + " activation, which can be negative; label"
                    + " recovery from weight signs needs sigmoid or ReLU features, or an output bias");
        }
    }
}
