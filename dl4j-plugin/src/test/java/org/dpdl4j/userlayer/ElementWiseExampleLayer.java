package org.dpdl4j.userlayer;

import java.util.Map;
import org.deeplearning4j.nn.conf.layers.misc.ElementWiseMultiplicationLayer;
import org.deeplearning4j.nn.params.ElementWiseParamInitializer;
import org.dpdl4j.optim.layers.ExampleLayer;
import org.dpdl4j.optim.layers.LayerContext;
import org.dpdl4j.optim.layers.ParameterSlots;
import org.nd4j.linalg.activations.IActivation;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A layer type the standard registry does not know, written as a user would, with the public API only: DL4J's
 * {@link ElementWiseMultiplicationLayer}, {@code f(x * w + b)} with one weight per feature. Example i's gradient is
 * {@code delta_i * x_i} for w and {@code delta_i} for b, so its squared norm is
 * {@code sum_j delta_ij^2 (x_ij^2 + 1)}: ghost norms again, nothing per example materialised.
 */
final class ElementWiseExampleLayer implements ExampleLayer {
    private final ParameterSlots slots;
    private final IActivation activation;
    private INDArray params;
    private INDArray input;
    private INDArray preOutput;
    private INDArray delta;

    ElementWiseExampleLayer(LayerContext context) {
        this.slots = context.parameters();
        this.activation = ((ElementWiseMultiplicationLayer) context.layer()).getActivationFn();
    }

    private INDArray weights(INDArray flat) {
        return slots.of(flat).get(ElementWiseParamInitializer.WEIGHT_KEY);
    }

    private INDArray bias(INDArray flat) {
        return slots.of(flat).get(ElementWiseParamInitializer.BIAS_KEY);
    }

    @Override
    public void bind(INDArray flatParameters) {
        this.params = flatParameters;
    }

    @Override
    public INDArray forward(INDArray in) {
        input = in;
        preOutput = in.mulRowVector(weights(params)).addiRowVector(bias(params));
        return activation.getActivation(preOutput.dup(), true);
    }

    @Override
    public INDArray backward(INDArray epsilon, boolean inputGradient) {
        delta = activation.backprop(preOutput, epsilon).getFirst();
        return inputGradient ? delta.mulRowVector(weights(params)) : null;
    }

    @Override
    public boolean hasParameters() {
        return true;
    }

    @Override
    public void addSquaredNorms(INDArray squaredNorms) {
        INDArray deltaSq = delta.mul(delta);
        INDArray term = deltaSq.mul(input.mul(input).addi(1.0)).sum(1);
        squaredNorms.addi(term.reshape(squaredNorms.shape()).castTo(squaredNorms.dataType()));
    }

    @Override
    public void writeClippedGradient(INDArray factors, INDArray gradient) {
        INDArray scaled = factors == null ? delta : delta.mulColumnVector(factors.reshape(factors.length(), 1).castTo(delta.dataType()));
        Map<String, INDArray> views = slots.of(gradient);
        INDArray w = views.get(ElementWiseParamInitializer.WEIGHT_KEY);
        INDArray b = views.get(ElementWiseParamInitializer.BIAS_KEY);
        w.assign(scaled.mul(input).sum(0).reshape(w.shape()));
        b.assign(scaled.sum(0).reshape(b.shape()));
    }

    @Override
    public void clear() {
        input = null;
        preOutput = null;
        delta = null;
    }
}
