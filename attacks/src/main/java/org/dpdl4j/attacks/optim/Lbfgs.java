package org.dpdl4j.attacks.optim;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Limited-memory BFGS with the two-loop recursion and a fixed step (no line search), reproducing the
 * semantics of PyTorch's {@code torch.optim.LBFGS.step} without {@code line_search_fn}:
 * <ul>
 *   <li>each {@link #step} evaluates the objective at the current point, returns at once if
 *       {@code max |g_i| <= gradientTolerance}, then runs up to {@code maxIterations} iterations, each moving by
 *       {@code t d} and re-evaluating (except after the last iteration, whose point the next step
 *       evaluates);</li>
 *   <li>{@code d} is {@code -g} on the very first iteration of the run and the two-loop direction afterwards,
 *       with the initial Hessian scale {@code s'y / y'y} of the newest pair; a pair is stored only when
 *       {@code s'y > 1e-10}, and the oldest pair is dropped beyond {@code historySize};</li>
 *   <li>{@code t = min(1, 1/||g||_1) * lr} on the very first iteration and {@code lr} afterwards;</li>
 *   <li>a step ends early when {@code g'd > -changeTolerance}, when {@code maxEvaluations} are spent, when the
 *       gradient is below tolerance, when {@code max |t d_i| <= changeTolerance}, or when the loss changed by less
 *       than {@code changeTolerance};</li>
 *   <li>direction, step length, history and previous gradient carry over between steps.</li>
 * </ul>
 * A step that ends without moving (gradient below tolerance, or {@code g'd > -changeTolerance} on its first
 * iteration) is reported as {@link StepOutcome#stationary()}: its history update, if any, came before its
 * direction, so every later step would compute the same direction and stop the same way.
 *
 * <p>One deliberate difference: a step also ends when the loss is not a finite number (PyTorch carries on with
 * NaNs); the caller sees it in {@link StepOutcome#isFinite()}.
 */
public final class Lbfgs implements Minimizer {
    private static final double CURVATURE_THRESHOLD = 1e-10;

    private final LbfgsConfig config;
    private final List<double[]> gradientChanges = new ArrayList<>();
    private final List<double[]> steps = new ArrayList<>();
    private final List<Double> inverseCurvatures = new ArrayList<>();
    private double[] direction;
    private double stepLength;
    private double[] previousGradient;
    private double hessianScale = 1.0;
    private long iterations;
    private long evaluations;

    /** A run with the given settings. */
    public Lbfgs(LbfgsConfig config) {
        this.config = Objects.requireNonNull(config, "L-BFGS config must not be null");
    }

    @Override
    public StepOutcome step(FlatObjective objective, double[] point) {
        VectorMath.requireDimension(objective, point);
        int n = point.length;
        double[] gradient = new double[n];
        double loss = objective.evaluate(point, gradient);
        double lossAtStart = loss;
        int stepEvaluations = 1;
        evaluations++;
        if (VectorMath.maxAbs(gradient) <= config.gradientTolerance()) {
            return new StepOutcome(lossAtStart, loss, stepEvaluations, true);
        }
        int inner = 0;
        boolean moved = false;
        while (inner < config.maxIterations()) {
            inner++;
            iterations++;
            if (iterations == 1) {
                direction = negated(gradient);
                gradientChanges.clear();
                steps.clear();
                inverseCurvatures.clear();
                hessianScale = 1.0;
            } else {
                updateHistory(gradient);
                direction = twoLoopDirection(gradient);
            }
            if (previousGradient == null) {
                previousGradient = gradient.clone();
            } else {
                System.arraycopy(gradient, 0, previousGradient, 0, n);
            }
            double previousLoss = loss;
            stepLength = iterations == 1
                    ? Math.min(1.0, 1.0 / VectorMath.sumAbs(gradient)) * config.learningRate()
                    : config.learningRate();
            double directionalDerivative = VectorMath.dot(gradient, direction);
            if (directionalDerivative > -config.changeTolerance()) {
                break;
            }
            VectorMath.axpy(stepLength, direction, point);
            moved = true;
            boolean converged = false;
            if (inner != config.maxIterations()) {
                gradient = new double[n];
                loss = objective.evaluate(point, gradient);
                stepEvaluations++;
                evaluations++;
                converged = VectorMath.maxAbs(gradient) <= config.gradientTolerance();
            }
            if (inner == config.maxIterations() || stepEvaluations >= config.maxEvaluations() || converged) {
                break;
            }
            if (VectorMath.maxAbs(direction) * Math.abs(stepLength) <= config.changeTolerance()) {
                break;
            }
            if (Math.abs(loss - previousLoss) < config.changeTolerance() || !Double.isFinite(loss)) {
                break;
            }
        }
        return new StepOutcome(lossAtStart, loss, stepEvaluations, !moved);
    }

    /** Stores the pair (y, s) = (g - g_prev, t d) of the last move if its curvature is positive enough. */
    private void updateHistory(double[] gradient) {
        int n = gradient.length;
        double[] y = new double[n];
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = gradient[i] - previousGradient[i];
            s[i] = direction[i] * stepLength;
        }
        double ys = VectorMath.dot(y, s);
        if (ys > CURVATURE_THRESHOLD) {
            if (gradientChanges.size() == config.historySize()) {
                gradientChanges.remove(0);
                steps.remove(0);
                inverseCurvatures.remove(0);
            }
            gradientChanges.add(y);
            steps.add(s);
            inverseCurvatures.add(1.0 / ys);
            hessianScale = ys / VectorMath.dot(y, y);
        }
    }

    /** The two-loop recursion: an approximation of {@code -H^{-1} g} from the stored pairs. */
    private double[] twoLoopDirection(double[] gradient) {
        int m = gradientChanges.size();
        double[] alphas = new double[m];
        double[] q = negated(gradient);
        for (int i = m - 1; i >= 0; i--) {
            alphas[i] = VectorMath.dot(steps.get(i), q) * inverseCurvatures.get(i);
            VectorMath.axpy(-alphas[i], gradientChanges.get(i), q);
        }
        for (int j = 0; j < q.length; j++) {
            q[j] *= hessianScale;
        }
        for (int i = 0; i < m; i++) {
            double beta = VectorMath.dot(gradientChanges.get(i), q) * inverseCurvatures.get(i);
            VectorMath.axpy(alphas[i] - beta, steps.get(i), q);
        }
        return q;
    }

    private static double[] negated(double[] v) {
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = -v[i];
        }
        return out;
    }

    @Override
    public long evaluations() {
        return evaluations;
    }

    /** Inner iterations so far (PyTorch's {@code n_iter}). */
    public long iterations() {
        return iterations;
    }

    /** Number of curvature pairs currently stored. */
    public int historyLength() {
        return gradientChanges.size();
    }
}
