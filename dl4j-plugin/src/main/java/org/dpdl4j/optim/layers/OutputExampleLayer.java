package org.dpdl4j.optim.layers;

import org.nd4j.linalg.activations.IActivation;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.lossfunctions.ILossFunction;

import java.util.Arrays;

/**
 * DL4J's {@code OutputLayer}: a fully connected layer whose activation and per-example loss end the network. The
 * backward pass starts from the loss's gradient with respect to the pre-activation, exactly as DL4J computes it.
 */
public final class OutputExampleLayer extends DenseExampleLayer implements ExampleLoss {
    private final ILossFunction loss;
    private final String label;
    private INDArray scores;

    public OutputExampleLayer(LayerContext context, IActivation activation, boolean hasBias, long nIn, ILossFunction loss) {
        super(context, activation, hasBias, nIn);
        this.loss = loss;
        this.label = context.label();
    }

    @Override
    public INDArray backwardFromLabels(INDArray labels, boolean inputGradient) {
        INDArray y = LossLabels.check(labels, preOutput, label);
        scores = loss.computeScoreArray(y, preOutput, activation(), null).reshape(preOutput.size(0));
        delta = loss.computeGradient(y, preOutput, activation(), null);
        return inputGradient ? backToInput() : null;
    }

    @Override
    public INDArray exampleScores() {
        return scores;
    }

    @Override
    public INDArray backward(INDArray epsilon, boolean inputGradient) {
        return ExampleLoss.super.backward(epsilon, inputGradient);
    }

    @Override
    public void clear() {
        super.clear();
        scores = null;
    }

    /** Shape checks shared by the loss layers. */
    static final class LossLabels {
        private LossLabels() {
        }

        static INDArray check(INDArray labels, INDArray preOutput, String label) {
            if (labels == null) {
                throw new IllegalArgumentException(label + " needs labels to compute the loss; none were given");
            }
            if (!Arrays.equals(labels.shape(), preOutput.shape())) {
                throw new IllegalArgumentException(label + " produces outputs of shape " + Arrays.toString(preOutput.shape())
                        + " but the labels have shape " + Arrays.toString(labels.shape())
                        + "; give one label row per example with one column per output (one-hot for classification)");
            }
            return labels.castTo(preOutput.dataType());
        }
    }
}
