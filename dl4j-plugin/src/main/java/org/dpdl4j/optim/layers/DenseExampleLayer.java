package org.dpdl4j.optim.layers;

import org.deeplearning4j.nn.params.DefaultParamInitializer;
import org.nd4j.linalg.activations.IActivation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Arrays;
import java.util.Map;

/**
 * A fully connected layer {@code f(x W + b)} (DL4J's {@code DenseLayer}). Example i's weight gradient is the outer
 * product {@code x_i delta_i^T}, so its squared norm is {@code ||x_i||^2 ||delta_i||^2} and the bias adds
 * {@code ||delta_i||^2} (ghost norms: two row reductions, nothing per example materialised); the clipped sum is
 * {@code X^T diag(c) Delta}.
 */
public class DenseExampleLayer implements ExampleLayer {
    private final ParameterSlots slots;
    private final IActivation activation;
    private final boolean hasBias;
    private final long nIn;
    private final String label;
    private final DataType dataType;
    private INDArray params;
    /** The input of the last forward pass, as rows in the network's data type. */
    protected INDArray input;
    /** The pre-activation of the last forward pass (the backward pass may overwrite it). */
    protected INDArray preOutput;
    /** The output-side error dLoss/dPreOutput of the last backward pass. */
    protected INDArray delta;

    public DenseExampleLayer(LayerContext context, IActivation activation, boolean hasBias, long nIn) {
        this.slots = context.parameters();
        this.activation = activation;
        this.hasBias = hasBias;
        this.nIn = nIn;
        this.label = context.label();
        this.dataType = context.dataType();
    }

    @Override
    public void bind(INDArray flatParams) {
        this.params = flatParams;
    }

    protected final INDArray weights(INDArray flat) {
        return slots.of(flat).get(DefaultParamInitializer.WEIGHT_KEY);
    }

    protected final INDArray bias(INDArray flat) {
        return slots.of(flat).get(DefaultParamInitializer.BIAS_KEY);
    }

    protected final IActivation activation() {
        return activation;
    }

    @Override
    public INDArray forward(INDArray in) {
        if (in.rank() != 2 || in.size(1) != nIn) {
            throw new IllegalArgumentException(label + " expects input rows of " + nIn + " features but receives shape "
                    + Arrays.toString(in.shape()) + "; flatten images with a CnnToFeedForwardPreProcessor"
                    + " (setInputType(...) adds it)");
        }
        input = in.castTo(dataType);
        INDArray w = weights(params);
        preOutput = Nd4j.createUninitialized(dataType, input.size(0), w.size(1));
        input.mmuli(w, preOutput);
        if (hasBias) {
            preOutput.addiRowVector(bias(params));
        }
        return activation.getActivation(preOutput.dup(), true);
    }

    @Override
    public INDArray backward(INDArray epsilon, boolean inputGradient) {
        delta = activation.backprop(preOutput, epsilon).getFirst();
        return inputGradient ? backToInput() : null;
    }

    /** dLoss/dInput = delta W^T. */
    protected final INDArray backToInput() {
        INDArray w = weights(params);
        INDArray eps = Nd4j.createUninitialized(dataType, new long[]{w.size(0), delta.size(0)}, 'f');
        return w.mmuli(delta.transpose(), eps).transpose();
    }

    @Override
    public boolean hasParameters() {
        return true;
    }

    @Override
    public void addSquaredNorms(INDArray squaredNorms) {
        INDArray inputSq = SquaredNorms.perExample(input);
        INDArray term = (hasBias ? inputSq.addi(1.0) : inputSq).muli(SquaredNorms.perExample(delta));
        squaredNorms.addi(term.castTo(squaredNorms.dataType()));
    }

    @Override
    public void writeClippedGradient(INDArray factors, INDArray gradient) {
        if (factors != null) {
            delta.muliColumnVector(factors.reshape(factors.length(), 1).castTo(dataType));
        }
        Map<String, INDArray> views = slots.of(gradient);
        INDArray weightGrad = views.get(DefaultParamInitializer.WEIGHT_KEY);
        Nd4j.gemm(input, delta, weightGrad, true, false, 1.0, 0.0);
        if (hasBias) {
            INDArray biasGrad = views.get(DefaultParamInitializer.BIAS_KEY);
            delta.sum(biasGrad.reshape(biasGrad.length()), 0);
        }
    }

    @Override
    public void clear() {
        input = null;
        preOutput = null;
        delta = null;
    }
}
