package org.dpdl4j.optim;

import org.nd4j.linalg.activations.IActivation;
import org.nd4j.linalg.activations.impl.ActivationIdentity;
import org.nd4j.linalg.activations.impl.ActivationLReLU;
import org.nd4j.linalg.activations.impl.ActivationReLU;
import org.nd4j.linalg.activations.impl.ActivationSigmoid;
import org.nd4j.linalg.activations.impl.ActivationTanH;

/**
 * A hidden layer's activation for {@link HostDenseGradients}, applied in place to one column of pre-activations.
 * Each derivative here is written through the activation's output, so the backward pass needs only the
 * activations it already keeps. The DL4J activations with a kernel here are the ones {@link #of} maps; any other
 * leaves the network to the ND4J engine. Public for the device engines, which compute the same functions.
 */
public sealed interface HostActivation {
    /** z[0..b) := f(z[0..b)). */
    void apply(float[] z, int b);

    /** eps[0..b) *= f'(z), given a = f(z) in a[0..b). */
    void backprop(float[] a, float[] eps, int b);

    /** The kernel for a DL4J activation, or null when there is none. */
    static HostActivation of(IActivation activation) {
        if (activation instanceof ActivationIdentity) {
            return new Identity();
        }
        if (activation instanceof ActivationReLU relu) {
            boolean plain = relu.getMax() == null && (relu.getThreshold() == null || relu.getThreshold() == 0.0)
                    && (relu.getNegativeSlope() == null || relu.getNegativeSlope() == 0.0);
            return plain ? new LeakyRelu(0f) : null;
        }
        if (activation instanceof ActivationLReLU leaky) {
            // Through the output the sign of z is that of a only for a positive slope.
            return leaky.getAlpha() > 0 ? new LeakyRelu((float) leaky.getAlpha()) : null;
        }
        if (activation instanceof ActivationTanH) {
            return new Tanh();
        }
        if (activation instanceof ActivationSigmoid) {
            return new Sigmoid();
        }
        return null;
    }

    record Identity() implements HostActivation {
        @Override
        public void apply(float[] z, int b) {
        }

        @Override
        public void backprop(float[] a, float[] eps, int b) {
        }
    }

    /** max(z, 0) + slope * min(z, 0); slope 0 is the ReLU. */
    record LeakyRelu(float slope) implements HostActivation {
        @Override
        public void apply(float[] z, int b) {
            for (int i = 0; i < b; i++) {
                float v = z[i];
                z[i] = v > 0f ? v : slope * v;
            }
        }

        @Override
        public void backprop(float[] a, float[] eps, int b) {
            for (int i = 0; i < b; i++) {
                eps[i] = a[i] > 0f ? eps[i] : slope * eps[i];
            }
        }
    }

    record Tanh() implements HostActivation {
        @Override
        public void apply(float[] z, int b) {
            for (int i = 0; i < b; i++) {
                // tanh z = sign(z) (1 - e) / (1 + e) with e = exp(-2|z|), which cannot overflow.
                double v = z[i];
                double e = Math.exp(-2.0 * Math.abs(v));
                double t = (1.0 - e) / (1.0 + e);
                z[i] = (float) (v < 0 ? -t : t);
            }
        }

        @Override
        public void backprop(float[] a, float[] eps, int b) {
            for (int i = 0; i < b; i++) {
                eps[i] *= 1f - a[i] * a[i];
            }
        }
    }

    record Sigmoid() implements HostActivation {
        @Override
        public void apply(float[] z, int b) {
            for (int i = 0; i < b; i++) {
                z[i] = (float) (1.0 / (1.0 + Math.exp(-(double) z[i])));
            }
        }

        @Override
        public void backprop(float[] a, float[] eps, int b) {
            for (int i = 0; i < b; i++) {
                eps[i] *= a[i] * (1f - a[i]);
            }
        }
    }
}
