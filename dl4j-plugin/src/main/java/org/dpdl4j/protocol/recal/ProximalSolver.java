package org.dpdl4j.protocol.recal;

import java.util.ArrayList;
import java.util.List;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.factory.ops.NDLinalg;

/**
 * The centralised reference solver of a {@link CompositeProblem}: accelerated proximal gradient (FISTA with
 * gradient-based adaptive restart) on the pooled data. For least squares with an l1 or elastic-net penalty the
 * iterate is then polished: on the support and signs FISTA found, the optimality conditions are a linear system,
 * solved exactly (Cholesky), and the result is accepted only when it satisfies every optimality condition
 * (consistent signs, {@code |grad_j| <= l1} off the support) — a certificate, not a stopping rule. That is how the
 * reference {@code x*} reaches relative error 1e-12 and below.
 */
public final class ProximalSolver {
    /**
     * The solution.
     *
     * @param x            the minimiser [q, c]
     * @param iterations   FISTA iterations used
     * @param optimality   the largest violation of the optimality conditions (a subgradient residual; 0 is exact)
     * @param certified    whether the polished solution passed the optimality check
     */
    public record Solution(INDArray x, int iterations, double optimality, boolean certified) {
    }

    private final CompositeProblem problem;
    private final INDArray gram;
    private final INDArray cross;
    private final double lipschitz;
    /** The pooled Gram matrix and cross term as Java arrays, made at the first polish. */
    private double[][] gramRows;
    private double[][] crossRows;

    public ProximalSolver(CompositeProblem problem) {
        this.problem = problem;
        boolean pooledGram = problem.agents().stream().allMatch(a -> a.gram() != null);
        if (pooledGram) {
            INDArray g = problem.agent(0).gram().dup();
            INDArray h = problem.agent(0).cross().dup();
            for (int i = 1; i < problem.agentCount(); i++) {
                g.addi(problem.agent(i).gram());
                h.addi(problem.agent(i).cross());
            }
            this.gram = g;
            this.cross = h;
            this.lipschitz = largestEigenvalue(g) * 1.01;
        } else {
            this.gram = null;
            this.cross = null;
            double sum = 0;
            for (double l : problem.smoothness()) {
                sum += l;
            }
            this.lipschitz = sum;
        }
    }

    /** The exact gradient of the smooth part, pooled over the agents. */
    public INDArray gradient(INDArray x) {
        if (gram != null) {
            return gram.mmul(x).subi(cross);
        }
        INDArray total = problem.zeros();
        INDArray g = problem.zeros();
        for (LocalProblem p : problem.agents()) {
            p.gradient(x, Double.POSITIVE_INFINITY, g);
            total.addi(g);
        }
        return total;
    }

    /**
     * Solves to a relative step below {@code tolerance}, polishing least-squares problems.
     *
     * @throws IllegalStateException when {@code maxIterations} pass without convergence
     */
    public Solution solve(double tolerance, int maxIterations) {
        double step = 1.0 / lipschitz;
        INDArray x = problem.zeros();
        INDArray y = x.dup();
        double t = 1;
        boolean polishable = gram != null && problem.penalty().l1() > 0;
        for (int it = 1; it <= maxIterations; it++) {
            INDArray next = problem.prox(y.sub(gradient(y).muli(step)), step);
            INDArray move = next.sub(x);
            if (y.sub(next).mul(move).sumNumber().doubleValue() > 0) {
                t = 1;   // momentum points uphill: restart
            }
            double tNext = (1 + Math.sqrt(1 + 4 * t * t)) / 2;
            y = next.add(move.mul((t - 1) / tNext));
            t = tNext;
            x = next;
            double size = Math.max(x.norm2Number().doubleValue(), Double.MIN_NORMAL);
            double relative = move.norm2Number().doubleValue() / size;
            if (polishable && relative < 1e-7 && it % 50 == 0) {
                INDArray polished = polish(x);
                if (polished != null) {
                    return new Solution(polished, it, optimality(polished), true);
                }
            }
            if (relative < tolerance) {
                if (polishable) {
                    INDArray polished = polish(x);
                    if (polished != null) {
                        return new Solution(polished, it, optimality(polished), true);
                    }
                }
                return new Solution(x, it, optimality(x), false);
            }
        }
        throw new IllegalStateException("the proximal solver did not converge in " + maxIterations + " iterations; raise the"
                + " iteration limit or the penalty (a larger l1 weight makes the solution sparser and the problem better conditioned)");
    }

    /**
     * The largest violation of the optimality conditions at {@code x}: on the penalised rows,
     * {@code |grad + l1 sign(x) + l2 x|} where {@code x != 0} and {@code max(0, |grad| - l1)} where {@code x = 0};
     * {@code |grad|} on an intercept row.
     */
    public double optimality(INDArray x) {
        double[][] g = gradient(x).toDoubleMatrix();
        double[][] v = x.toDoubleMatrix();
        Penalty pen = problem.penalty();
        double worst = 0;
        for (int j = 0; j < v.length; j++) {
            for (int k = 0; k < v[j].length; k++) {
                double r;
                if (j >= problem.penalizedRows()) {
                    r = Math.abs(g[j][k]);
                } else if (v[j][k] != 0) {
                    r = Math.abs(g[j][k] + pen.l1() * Math.signum(v[j][k]) + pen.l2() * v[j][k]);
                } else {
                    r = Math.max(0, Math.abs(g[j][k]) - pen.l1());
                }
                worst = Math.max(worst, r);
            }
        }
        return worst;
    }

    /** The exact solution on x's support and signs, or null when it does not satisfy the optimality conditions. */
    private INDArray polish(INDArray x) {
        if (gramRows == null) {
            gramRows = gram.toDoubleMatrix();
            crossRows = cross.toDoubleMatrix();
        }
        double[][] g = gramRows;
        double[][] h = crossRows;
        double[][] v = x.toDoubleMatrix();
        Penalty pen = problem.penalty();
        int q = v.length;
        int c = v[0].length;
        double[][] out = new double[q][c];
        for (int k = 0; k < c; k++) {
            List<Integer> support = new ArrayList<>();
            for (int j = 0; j < q; j++) {
                if (j >= problem.penalizedRows() || v[j][k] != 0) {
                    support.add(j);
                }
            }
            int s = support.size();
            double[][] m = new double[s][s];
            double[] rhs = new double[s];
            for (int a = 0; a < s; a++) {
                int ja = support.get(a);
                for (int b = 0; b < s; b++) {
                    m[a][b] = g[ja][support.get(b)];
                }
                boolean penalised = ja < problem.penalizedRows();
                if (penalised) {
                    m[a][a] += pen.l2();
                }
                rhs[a] = h[ja][k] - (penalised ? pen.l1() * Math.signum(v[ja][k]) : 0);
            }
            double[] sol = s == 0 ? new double[0] : solveSpd(m, rhs);
            if (sol == null) {
                return null;
            }
            for (int a = 0; a < s; a++) {
                int ja = support.get(a);
                if (ja < problem.penalizedRows() && Math.signum(sol[a]) != Math.signum(v[ja][k])) {
                    return null;
                }
                out[ja][k] = sol[a];
            }
        }
        INDArray candidate = Nd4j.createFromArray(out).castTo(DataType.DOUBLE);
        double[][] grad = gradient(candidate).toDoubleMatrix();
        for (int j = 0; j < problem.penalizedRows(); j++) {
            for (int k = 0; k < c; k++) {
                if (out[j][k] == 0 && Math.abs(grad[j][k]) > pen.l1() * (1 + 1e-9)) {
                    return null;
                }
            }
        }
        return candidate;
    }

    /** The solution of {@code m x = v} for a symmetric positive definite m (Cholesky), or null when m is not. */
    private static double[] solveSpd(double[][] m, double[] v) {
        NDLinalg linalg = new NDLinalg();
        INDArray l = linalg.cholesky(Nd4j.createFromArray(m));
        INDArray y = linalg.triangularSolve(l, Nd4j.createFromArray(v).reshape(v.length, 1), true, false);
        INDArray x = linalg.triangularSolve(l, y, true, true);
        double[] out = x.reshape(v.length).toDoubleVector();
        for (double d : out) {
            if (!Double.isFinite(d)) {
                return null;
            }
        }
        return out;
    }

    /** lambda_max of a symmetric positive semidefinite matrix by power iteration. */
    static double largestEigenvalue(INDArray g) {
        INDArray v = Nd4j.ones(DataType.DOUBLE, g.size(0), 1);
        double value = 0;
        for (int it = 0; it < 5000; it++) {
            INDArray w = g.mmul(v);
            double next = w.norm2Number().doubleValue() / v.norm2Number().doubleValue();
            if (next == 0) {
                return 0;
            }
            v = w.divi(w.norm2Number());
            if (Math.abs(next - value) <= 1e-12 * next) {
                return next;
            }
            value = next;
        }
        return value;
    }

    /** The step size's Lipschitz constant of the pooled smooth part. */
    public double lipschitz() {
        return lipschitz;
    }
}
