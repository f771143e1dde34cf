package org.dpdl4j.optim.layers;

import org.deeplearning4j.nn.conf.layers.EmbeddingLayer;
import org.deeplearning4j.nn.params.DefaultParamInitializer;
import org.nd4j.linalg.activations.IActivation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.shape.OneHot;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Arrays;
import java.util.Map;

/**
 * DL4J's {@code EmbeddingLayer}: example i, a class index {@code k_i}, gets row {@code k_i} of W plus the bias,
 * then the activation. It is a dense layer on the one-hot vector of {@code k_i}, whose squared norm is 1: example
 * i's squared gradient norm is {@code (1 + [bias]) ||delta_i||^2}, and the clipped sum is {@code onehot^T diag(c)
 * Delta}. The input gets no gradient (indices are not differentiable).
 */
public final class EmbeddingExampleLayer implements ExampleLayer {
    private final ParameterSlots slots;
    private final IActivation activation;
    private final boolean hasBias;
    private final long vocabulary;
    private final String label;
    private final DataType dataType;
    private INDArray params;
    private INDArray oneHot;
    private INDArray preOutput;
    private INDArray delta;

    public EmbeddingExampleLayer(LayerContext context) {
        EmbeddingLayer conf = (EmbeddingLayer) context.layer();
        this.slots = context.parameters();
        this.activation = conf.getActivationFn();
        this.hasBias = conf.hasBias();
        this.vocabulary = conf.getNIn();
        this.label = context.label();
        this.dataType = context.dataType();
    }

    @Override
    public void bind(INDArray flatParams) {
        this.params = flatParams;
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
        oneHot = Nd4j.exec(new OneHot(indices, Nd4j.create(dataType, indices.length(), vocabulary), (int) vocabulary))[0];
        Map<String, INDArray> views = slots.of(params);
        preOutput = oneHot.mmul(views.get(DefaultParamInitializer.WEIGHT_KEY));
        if (hasBias) {
            preOutput.addiRowVector(views.get(DefaultParamInitializer.BIAS_KEY));
        }
        return activation.getActivation(preOutput.dup(), true);
    }

    @Override
    public INDArray backward(INDArray epsilon, boolean inputGradient) {
        delta = activation.backprop(preOutput, epsilon).getFirst();
        return null;
    }

    @Override
    public boolean hasParameters() {
        return true;
    }

    @Override
    public void addSquaredNorms(INDArray squaredNorms) {
        INDArray sq = SquaredNorms.perExample(delta);
        squaredNorms.addi((hasBias ? sq.muli(2.0) : sq).castTo(squaredNorms.dataType()));
    }

    @Override
    public void writeClippedGradient(INDArray factors, INDArray gradient) {
        if (factors != null) {
            delta.muliColumnVector(factors.reshape(factors.length(), 1).castTo(dataType));
        }
        Map<String, INDArray> views = slots.of(gradient);
        Nd4j.gemm(oneHot, delta, views.get(DefaultParamInitializer.WEIGHT_KEY), true, false, 1.0, 0.0);
        if (hasBias) {
            INDArray biasGrad = views.get(DefaultParamInitializer.BIAS_KEY);
            delta.sum(biasGrad.reshape(biasGrad.length()), 0);
        }
    }

    @Override
    public void clear() {
        oneHot = null;
        preOutput = null;
        delta = null;
    }
}
