package org.dpdl4j.protocol.recal;

import java.util.Arrays;

/**
 * The step sizes and relaxation parameters of the AFBS primal-dual iteration (spec 5.2): per-agent primal steps
 * {@code tau_i}, per-agent dual steps {@code beta_i}, the global step {@code gamma}, and {@code theta >= 0},
 * {@code mu in [0, 1]} ({@code theta = 2} is the Vu-Condat case, whose correction terms vanish).
 */
public record RecalSteps(double[] tau, double[] beta, double gamma, double theta, double mu) {
    public RecalSteps {
        tau = tau.clone();
        beta = beta.clone();
        if (tau.length != beta.length || tau.length == 0) {
            throw new IllegalArgumentException("give one tau and one beta per agent, got " + tau.length + " and " + beta.length);
        }
        for (int i = 0; i < tau.length; i++) {
            if (!(tau[i] > 0) || !(beta[i] > 0) || Double.isInfinite(tau[i]) || Double.isInfinite(beta[i])) {
                throw new IllegalArgumentException("agent " + i + ": tau and beta must be positive and finite, got " + tau[i]
                        + " and " + beta[i]);
            }
        }
        if (!(gamma > 0) || Double.isInfinite(gamma)) {
            throw new IllegalArgumentException("gamma must be positive and finite, got " + gamma);
        }
        if (!(theta >= 0) || Double.isInfinite(theta)) {
            throw new IllegalArgumentException("theta must be a finite number >= 0, got " + theta);
        }
        if (!(mu >= 0 && mu <= 1)) {
            throw new IllegalArgumentException("mu must lie in [0, 1], got " + mu);
        }
    }

    /**
     * The safe default of spec 5.2 scaled by {@code scale}: {@code tau_i = scale / (2 L_i)}, {@code beta_i = L_i / 2},
     * {@code gamma = 1 / sum_i L_i} (scale 1 satisfies the theta = 2 step condition with margin).
     */
    public static RecalSteps defaults(double[] smoothness, double theta, double mu) {
        double[] tau = new double[smoothness.length];
        double[] beta = new double[smoothness.length];
        double sum = 0;
        for (int i = 0; i < smoothness.length; i++) {
            if (!(smoothness[i] > 0)) {
                throw new IllegalArgumentException("agent " + i + " has smoothness constant " + smoothness[i]
                        + "; its data must not be all zeros");
            }
            tau[i] = 1 / (2 * smoothness[i]);
            beta[i] = smoothness[i] / 2;
            sum += smoothness[i];
        }
        return new RecalSteps(tau, beta, 1 / sum, theta, mu);
    }

    /** The same steps with other relaxation parameters. */
    public RecalSteps withRelaxation(double newTheta, double newMu) {
        return new RecalSteps(tau, beta, gamma, newTheta, newMu);
    }

    public int agents() {
        return tau.length;
    }

    /**
     * The coefficient of agent i's gradient in the dual it publishes: {@code beta_i tau_i |theta + (1 - mu)(2 - theta)|}
     * ({@code 2 beta_i tau_i} for theta = 2). Times the replace-one change of a clipped gradient sum, 2 G_rec, it is
     * the sensitivity of a publication.
     */
    public double gradientCoefficient(int i) {
        // exactly 2 where the correction cancels (theta = 2, or mu = 0, where theta + (2 - theta) may round off 2)
        double factor = theta == 2 || mu == 0 ? 2 : Math.abs(theta + (1 - mu) * (2 - theta));
        return beta[i] * tau[i] * factor;
    }

    /** Whether the step that corrects y carries the active agent's fresh dual (then y is not noise-protected). */
    public boolean correctsGlobalVariable() {
        return mu * (2 - theta) != 0;
    }

    /**
     * Checks the sufficient condition of the synchronous theta = 2 scheme: {@code c_i = 1/tau_i - beta_i - L_i/2 > 0}
     * and {@code 1/gamma > sum beta_i + sum beta_i^2 / c_i}; returns null when it holds, else what fails.
     */
    public String violation(double[] smoothness) {
        double bound = 0;
        for (int i = 0; i < tau.length; i++) {
            double c = 1 / tau[i] - beta[i] - smoothness[i] / 2;
            if (!(c > 0)) {
                return "agent " + i + ": 1/tau - beta - L/2 = " + c + " is not positive";
            }
            bound += beta[i] + beta[i] * beta[i] / c;
        }
        if (!(1 / gamma > bound)) {
            return "1/gamma = " + (1 / gamma) + " is not above sum(beta + beta^2/c) = " + bound;
        }
        return null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RecalSteps s && Arrays.equals(tau, s.tau) && Arrays.equals(beta, s.beta) && gamma == s.gamma
                && theta == s.theta && mu == s.mu;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(tau) * 31 + Arrays.hashCode(beta);
    }

    @Override
    public String toString() {
        return "RecalSteps[tau=" + Arrays.toString(tau) + ", beta=" + Arrays.toString(beta) + ", gamma=" + gamma + ", theta="
                + theta + ", mu=" + mu + "]";
    }
}
