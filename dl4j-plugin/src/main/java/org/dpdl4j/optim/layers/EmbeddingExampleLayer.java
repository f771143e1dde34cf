package org.dpdl4j.optim.layers;

import org.deeplearning4j.nn.conf.layers.EmbeddingLayer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.shape.OneHot;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Arrays;

/**
 * DL4J's {@code EmbeddingLayer}: example i, a class index {@code k_i}, gets row {@code k_i} of W plus the bias, then
 * the activation. That is a dense layer on the one-hot vector of {@code k_i} (whose squared norm is 1), and it is
 * computed as one: example i's squared gradient norm is {@code (1 + [bias]) ||delta_i||^2} and the clipped sum is
 * {@code onehot^T diag(c) Delta}. The input gets no gradient (indices are not differentiable).
 */
public final class EmbeddingExampleLayer extends DenseExampleLayer {
    private final long vocabulary;
    private final String label;
    private final DataType dataType;

    public EmbeddingExampleLayer(LayerContext context) {
        this(context, (EmbeddingLayer) context.layer());
    }

    private EmbeddingExampleLayer(LayerContext context, EmbeddingLayer conf) {
        super(context, conf.getActivationFn(), conf.hasBias(), conf.getNIn());
        this.vocabulary = conf.getNIn();
        this.label = context.label();
        this.dataType = context.dataType();
    }

    @Override
    public INDArray forward(INDArray input) {
        if (input.length() != input.size(0)) {
            throw new IllegalArgumentException(label + " expects one class index per example ([batch, 1]) but receives shape "
                    + Arrays.toString(input.shape()));
        }
        INDArray indices = input.reshape(input.size(0)).castTo(DataType.INT64);
        long low = indices.minNumber().longValue();
        long high = indices.maxNumber().longValue();
        if (low < 0 || high >= vocabulary) {
            throw new IllegalArgumentException(label + " has " + vocabulary + " rows but receives index "
                    + (low < 0 ? low : high) + "; indices must lie in [0, " + vocabulary + ")");
        }
        INDArray oneHot = Nd4j.exec(new OneHot(indices, Nd4j.create(dataType, indices.length(), vocabulary), (int) vocabulary))[0];
        return super.forward(oneHot);
    }

    @Override
    public INDArray backward(INDArray epsilon, boolean inputGradient) {
        return super.backward(epsilon, false);
    }
}
