package org.dpdl4j.optim.layers;

import org.nd4j.linalg.activations.IActivation;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.lossfunctions.ILossFunction;

/**
 * DL4J's {@code LossLayer}: an activation and a per-example loss on the previous layer's output, without
 * parameters. It only starts the backward pass.
 */
public final class LossExampleLayer implements ExampleLoss {
    private final IActivation activation;
    private final ILossFunction loss;
    private final String label;
    private final org.nd4j.linalg.api.buffer.DataType dataType;
    private INDArray input;
    private INDArray scores;

    public LossExampleLayer(LayerContext context, IActivation activation, ILossFunction loss) {
        this.activation = activation;
        this.loss = loss;
        this.label = context.label();
        this.dataType = context.dataType();
    }

    @Override
    public INDArray forward(INDArray in) {
        input = in.castTo(dataType);
        return activation.getActivation(input.dup(), true);
    }

    @Override
    public INDArray backwardFromLabels(INDArray labels, boolean inputGradient) {
        INDArray y = OutputExampleLayer.LossLabels.check(labels, input, label);
        scores = loss.computeScoreArray(y, input, activation, null).reshape(input.size(0));
        INDArray delta = loss.computeGradient(y, input.dup(), activation, null);
        return inputGradient ? delta : null;
    }

    @Override
    public INDArray exampleScores() {
        return scores;
    }

    @Override
    public void clear() {
        input = null;
        scores = null;
    }
}
