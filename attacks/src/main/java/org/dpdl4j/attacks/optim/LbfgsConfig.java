package org.dpdl4j.attacks.optim;

/**
 * Settings of {@link Lbfgs}. {@link #pytorchDefaults()} are the values of PyTorch's {@code torch.optim.LBFGS}
 * with {@code lr = 1}, which the DLG reference code uses.
 *
 * @param learningRate     step length {@code lr} (the first step of a run is scaled by {@code min(1, 1/||g||_1)})
 * @param maxIterations    inner iterations per outer step ({@code max_iter}, 20)
 * @param maxEvaluations   objective evaluations per outer step ({@code max_eval}, 25 = 1.25 x max_iter)
 * @param gradientTolerance stop when {@code max |g_i|} is at most this ({@code tolerance_grad}, 1e-7)
 * @param changeTolerance  stop when the step or the loss change is below this ({@code tolerance_change}, 1e-9)
 * @param historySize      curvature pairs kept ({@code history_size}, 100)
 */
public record LbfgsConfig(double learningRate, int maxIterations, int maxEvaluations, double gradientTolerance,
                          double changeTolerance, int historySize) implements OptimizerConfig {

    public LbfgsConfig {
        if (!(learningRate > 0) || Double.isInfinite(learningRate)) {
            throw new IllegalArgumentException("L-BFGS: learningRate must be a positive finite number, got "
                    + learningRate);
        }
        if (maxIterations < 1) {
            throw new IllegalArgumentException("L-BFGS: maxIterations must be >= 1, got " + maxIterations);
        }
        if (maxEvaluations < 1) {
            throw new IllegalArgumentException("L-BFGS: maxEvaluations must be >= 1, got " + maxEvaluations);
        }
        if (!(gradientTolerance >= 0) || !(changeTolerance >= 0)) {
            throw new IllegalArgumentException("L-BFGS: tolerances must be >= 0, got gradient " + gradientTolerance
                    + ", change " + changeTolerance);
        }
        if (historySize < 1) {
            throw new IllegalArgumentException("L-BFGS: historySize must be >= 1, got " + historySize);
        }
    }

    /** PyTorch's defaults with learning rate 1: 20 iterations, 25 evaluations, tolerances 1e-7 / 1e-9, history 100. */
    public static LbfgsConfig pytorchDefaults() {
        return new LbfgsConfig(1.0, 20, 25, 1e-7, 1e-9, 100);
    }

    @Override
    public Minimizer newMinimizer() {
        return new Lbfgs(this);
    }

    @Override
    public String name() {
        return "lbfgs";
    }
}
