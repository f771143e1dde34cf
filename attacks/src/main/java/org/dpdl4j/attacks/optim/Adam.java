package org.dpdl4j.attacks.optim;

import java.util.Objects;

/**
 * Adam (Kingma and Ba 2015) with bias correction, as PyTorch's {@code torch.optim.Adam} without weight decay:
 * {@code x -= lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)}. One outer step is one evaluation.
 */
public final class Adam implements Minimizer {
    private final AdamConfig config;
    private double[] firstMoment;
    private double[] secondMoment;
    private long steps;

    /** A run with the given settings. */
    public Adam(AdamConfig config) {
        this.config = Objects.requireNonNull(config, "Adam config must not be null");
    }

    @Override
    public StepOutcome step(FlatObjective objective, double[] point) {
        VectorMath.requireDimension(objective, point);
        int n = point.length;
        if (firstMoment == null) {
            firstMoment = new double[n];
            secondMoment = new double[n];
        }
        double[] gradient = new double[n];
        double loss = objective.evaluate(point, gradient);
        steps++;
        double b1 = config.beta1();
        double b2 = config.beta2();
        double correction1 = 1 - Math.pow(b1, steps);
        double correction2 = 1 - Math.pow(b2, steps);
        double stepSize = config.learningRate() / correction1;
        double sqrtCorrection2 = Math.sqrt(correction2);
        for (int i = 0; i < n; i++) {
            firstMoment[i] = b1 * firstMoment[i] + (1 - b1) * gradient[i];
            secondMoment[i] = b2 * secondMoment[i] + (1 - b2) * gradient[i] * gradient[i];
            double denominator = Math.sqrt(secondMoment[i]) / sqrtCorrection2 + config.epsilon();
            point[i] -= stepSize * firstMoment[i] / denominator;
        }
        return new StepOutcome(loss, loss, 1, false);
    }

    @Override
    public long evaluations() {
        return steps;
    }
}
