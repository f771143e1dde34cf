package org.dpdl4j.attacks.network;

import java.util.List;
import org.dpdl4j.nn.LayerDescription;
import org.dpdl4j.nn.ModelProblem;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.activations.IActivation;
import org.nd4j.linalg.activations.impl.ActivationIdentity;
import org.nd4j.linalg.activations.impl.ActivationReLU;
import org.nd4j.linalg.activations.impl.ActivationSigmoid;
import org.nd4j.linalg.activations.impl.ActivationTanH;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * The element-wise activation after a hidden stage, with the first and second derivatives that gradient
 * matching needs (the matching loss differentiates the model's backward pass, which contains {@code f'}).
 *
 * <p>Derivatives are written in terms of the pre-activation {@code a} and the activation {@code h = f(a)}, so
 * callers reuse {@code h} from the forward pass.
 */
public enum StageActivation {
    /** {@code 1 / (1 + e^-a)}: {@code f' = h(1-h)}, {@code f'' = h(1-h)(1-2h)}. */
    SIGMOID,
    /** {@code tanh(a)}: {@code f' = 1 - h^2}, {@code f'' = -2h(1-h^2)}. */
    TANH,
    /** {@code max(0, a)}: {@code f' = [a > 0]}, {@code f'' = 0} (almost everywhere). */
    RELU,
    /** {@code a}: {@code f' = 1}, {@code f'' = 0}. */
    IDENTITY;

    /** Names accepted by {@link #of}, for error messages. */
    public static final String SUPPORTED = "sigmoid, tanh, relu (plain: no threshold, cap or leak), identity";

    /**
     * The activation of a dense or convolution layer.
     *
     * @param problems where the reason is filed when gradient matching has no derivatives for the activation
     * @return the activation, or {@code null} after filing the problem
     */
    public static StageActivation of(LayerDescription layer, List<ModelProblem> problems) {
        IActivation activation = layer.activation();
        if (activation instanceof ActivationSigmoid) {
            return SIGMOID;
        }
        if (activation instanceof ActivationTanH) {
            return TANH;
        }
        if (activation instanceof ActivationIdentity) {
            return IDENTITY;
        }
        if (activation instanceof ActivationReLU && activation.equals(new ActivationReLU())) {
            return RELU;
        }
        problems.add(activation instanceof ActivationReLU
                ? layer.problem("ReLU with a threshold, cap or negative slope (" + activation + ") is not supported",
                        "use a plain ReLU or one of: " + SUPPORTED)
                : layer.problem("activation " + activation + " is not supported by gradient matching",
                        "use one of: " + SUPPORTED));
        return null;
    }

    /** Whether {@code f''} is identically zero, so the curvature term of the matching gradient vanishes. */
    public boolean isPiecewiseLinear() {
        return this == RELU || this == IDENTITY;
    }

    /** {@code f(a)} as a new array. */
    public INDArray apply(INDArray a) {
        return switch (this) {
            case SIGMOID -> Transforms.sigmoid(a, true);
            case TANH -> Transforms.tanh(a, true);
            case RELU -> Transforms.relu(a, true);
            case IDENTITY -> a.dup();
        };
    }

    /** {@code f'(a)} as a new array, given {@code h = f(a)}. */
    public INDArray derivative(INDArray a, INDArray h) {
        return switch (this) {
            case SIGMOID -> h.rsub(1.0).muli(h);
            case TANH -> h.mul(h).rsubi(1.0);
            case RELU -> a.gt(0.0).castTo(a.dataType());
            case IDENTITY -> a.ulike().assign(1.0);
        };
    }

    /** {@code f''(a)} as a new array, given {@code h = f(a)}; only for activations that are not piecewise linear. */
    public INDArray secondDerivative(INDArray h) {
        return switch (this) {
            case SIGMOID -> h.rsub(1.0).muli(h).muli(h.mul(-2.0).addi(1.0));
            case TANH -> h.mul(h).rsubi(1.0).muli(h).muli(-2.0);
            case RELU, IDENTITY -> throw new IllegalStateException(this + " has no curvature term");
        };
    }

    /** {@code f(a)} of one value. */
    public double apply(double a) {
        return switch (this) {
            case SIGMOID -> 1.0 / (1.0 + Math.exp(-a));
            case TANH -> Math.tanh(a);
            case RELU -> a > 0 ? a : 0.0;
            case IDENTITY -> a;
        };
    }

    /** {@code f'(a)} of one value, given {@code h = f(a)}. */
    public double slope(double a, double h) {
        return switch (this) {
            case SIGMOID -> h * (1 - h);
            case TANH -> 1 - h * h;
            case RELU -> a > 0 ? 1.0 : 0.0;
            case IDENTITY -> 1.0;
        };
    }

    /** {@code f''(a)} of one value, given {@code h = f(a)} (0 for the piecewise linear activations). */
    public double curvature(double h) {
        return switch (this) {
            case SIGMOID -> h * (1 - h) * (1 - 2 * h);
            case TANH -> -2 * h * (1 - h * h);
            case RELU, IDENTITY -> 0.0;
        };
    }

    /** {@code f(a)} in a SameDiff graph. */
    public SDVariable apply(SameDiff sd, SDVariable a) {
        return switch (this) {
            case SIGMOID -> sd.nn.sigmoid(a);
            case TANH -> sd.math.tanh(a);
            case RELU -> sd.nn.relu(a, 0.0);
            case IDENTITY -> a;
        };
    }

    /**
     * {@code f'(a)} in a SameDiff graph, given {@code h = f(a)}, built from differentiable ops so that
     * SameDiff can differentiate through it. For ReLU the step mask is cast from a boolean comparison, which
     * SameDiff treats as a constant (its derivative is zero almost everywhere).
     *
     * @throws IllegalStateException for {@link #IDENTITY}, whose derivative is 1: callers skip the product
     */
    public SDVariable derivative(SDVariable a, SDVariable h) {
        return switch (this) {
            case SIGMOID -> h.mul(h.rsub(1.0));
            case TANH -> h.mul(h).rsub(1.0);
            case RELU -> a.gt(0.0).castTo(a.dataType());
            case IDENTITY -> throw new IllegalStateException("the identity has derivative 1; skip the product");
        };
    }
}
