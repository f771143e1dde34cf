package org.dpdl4j.attacks.optim;

/**
 * Settings of {@link Adam}; one outer step is one gradient evaluation.
 *
 * @param learningRate step size
 * @param beta1        decay of the first moment
 * @param beta2        decay of the second moment
 * @param epsilon      added to the square root of the second moment
 */
public record AdamConfig(double learningRate, double beta1, double beta2, double epsilon) implements OptimizerConfig {

    public AdamConfig {
        if (!(learningRate > 0) || Double.isInfinite(learningRate)) {
            throw new IllegalArgumentException("Adam: learningRate must be a positive finite number, got "
                    + learningRate);
        }
        if (!(beta1 >= 0 && beta1 < 1) || !(beta2 >= 0 && beta2 < 1)) {
            throw new IllegalArgumentException("Adam: beta1 and beta2 must lie in [0, 1), got " + beta1 + ", " + beta2);
        }
        if (!(epsilon > 0)) {
            throw new IllegalArgumentException("Adam: epsilon must be > 0, got " + epsilon);
        }
    }

    /** The usual defaults (beta1 0.9, beta2 0.999, epsilon 1e-8) with the given learning rate. */
    public static AdamConfig withLearningRate(double learningRate) {
        return new AdamConfig(learningRate, 0.9, 0.999, 1e-8);
    }

    @Override
    public Minimizer newMinimizer() {
        return new Adam(this);
    }

    @Override
    public String name() {
        return "adam";
    }
}
