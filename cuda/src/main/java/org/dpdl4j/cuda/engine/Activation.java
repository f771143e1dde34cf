package org.dpdl4j.cuda.engine;

/**
 * A hidden layer's activation as the kernels compute it: identity, leaky ReLU (slope 0 is the ReLU), tanh or sigmoid.
 * Every derivative is written through the activation's output, so the backward pass needs only the activations.
 *
 * @param kind  the function
 * @param slope the negative slope of a leaky ReLU (0 for the ReLU; must be &gt;= 0, so that the sign of the output is the
 *              sign of the input); 0 for the others
 */
public record Activation(Kind kind, float slope) {
    /** The functions, with the codes the kernels know them by. */
    public enum Kind {
        IDENTITY(0), LEAKY_RELU(1), TANH(2), SIGMOID(3);

        private final int code;

        Kind(int code) {
            this.code = code;
        }

        /** The constant of dp_step.cu ({@code ACT_...}). */
        public int code() {
            return code;
        }
    }

    public static final Activation IDENTITY = new Activation(Kind.IDENTITY, 0f);
    public static final Activation RELU = new Activation(Kind.LEAKY_RELU, 0f);
    public static final Activation TANH = new Activation(Kind.TANH, 0f);
    public static final Activation SIGMOID = new Activation(Kind.SIGMOID, 0f);

    public Activation {
        if (kind == null) {
            throw new IllegalArgumentException("an activation needs its kind");
        }
        if (kind == Kind.LEAKY_RELU ? !(slope >= 0f) : slope != 0f) {
            throw new IllegalArgumentException("a leaky ReLU needs a slope >= 0 (its derivative is read from the sign of"
                    + " its output) and the other activations none; got " + kind + " with slope " + slope);
        }
    }

    /** A leaky ReLU with the given negative slope. */
    public static Activation leakyRelu(float slope) {
        return new Activation(Kind.LEAKY_RELU, slope);
    }

    /** f(v), as the kernel computes it (tanh and sigmoid in double). */
    public float apply(float v) {
        return switch (kind) {
            case IDENTITY -> v;
            case LEAKY_RELU -> v > 0f ? v : slope * v;
            case TANH -> {
                double x = v;
                double e = Math.exp(-2.0 * Math.abs(x));
                double t = (1.0 - e) / (1.0 + e);
                yield (float) (x < 0.0 ? -t : t);
            }
            case SIGMOID -> (float) (1.0 / (1.0 + Math.exp(-(double) v)));
        };
    }

    /** eps * f'(z), given a = f(z). */
    public float timesDerivative(float a, float eps) {
        return switch (kind) {
            case IDENTITY -> eps;
            case LEAKY_RELU -> a > 0f ? eps : slope * eps;
            case TANH -> eps * (1f - a * a);
            case SIGMOID -> eps * (a * (1f - a));
        };
    }

    /** f'(z) in double given z, for the double-precision oracle. */
    double derivativeAt(double z) {
        return switch (kind) {
            case IDENTITY -> 1.0;
            case LEAKY_RELU -> z > 0 ? 1.0 : slope;
            case TANH -> {
                double t = Math.tanh(z);
                yield 1.0 - t * t;
            }
            case SIGMOID -> {
                double s = 1.0 / (1.0 + Math.exp(-z));
                yield s * (1.0 - s);
            }
        };
    }

    /** f(z) in double, for the double-precision oracle. */
    double applyExact(double z) {
        return switch (kind) {
            case IDENTITY -> z;
            case LEAKY_RELU -> z > 0 ? z : slope * z;
            case TANH -> Math.tanh(z);
            case SIGMOID -> 1.0 / (1.0 + Math.exp(-z));
        };
    }
}
