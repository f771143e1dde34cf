package org.dpdl4j.protocol.recal;

/**
 * How the L2 sensitivity of an agent's successive DP-RECAL publications is bounded, as multiples of {@code Delta_i},
 * the change one record makes to the gradient term of one publication ({@code 2 beta_i tau_i 2 G_rec}).
 *
 * <p>An agent publishes {@code beta_i (x - 2 tau_i g(x))} plus public terms, where {@code x} is its primal iterate and
 * {@code g} its clipped gradient sum, and continues from {@code x - tau_i (g(x) + lambda_i)}. Given the same public
 * history, two neighbouring datasets' iterates drift apart: each activation adds at most {@code 2 tau_i G_rec} (the
 * replaced record) to their distance, and the step {@code x -> x - t g(x)} does not enlarge it when it is nonexpansive.
 * With least squares it is: a clipped least-squares record gradient {@code a proj(a^T X - b)} (the residual projected
 * onto a ball) is the gradient of a convex function of {@code a^T X} with 1-Lipschitz gradient, so the clipped sum is
 * the gradient of a convex function that is {@code lambda_max(A^T A)}-smooth, and {@code x - t g(x)} is nonexpansive
 * for {@code t <= 2 / L_i}; the publication's step {@code t = 2 tau_i} needs {@code tau_i <= 1 / L_i}. Then the
 * iterates differ by at most {@code 2 (m - 1) tau_i G_rec} before the m-th publication, which moves by at most
 * {@code beta_i (2 (m - 1) tau_i G_rec + 4 tau_i G_rec)}, i.e. {@code Delta_i (m + 1) / 2}; a record whose clipped
 * gradient stays constant, along a feature no other record has, reaches it. Each publication is then a Gaussian
 * mechanism of that sensitivity given the public history, and they compose adaptively.
 */
public enum PublicationSensitivity {
    /**
     * Every publication {@code Delta_i}, the agent's internal state conditioned on, as the paper prices it. The state is
     * never published, so this is the paper's figure, not a proven bound.
     */
    CONDITIONED_ON_STATE,
    /** The m-th publication {@code Delta_i (m + 1) / 2}: proven for least squares with {@code tau_i <= 1 / L_i}. */
    STATE_DRIFT;

    /** The m-th publication's sensitivity over {@code Delta_i} (m >= 1). */
    public double factor(long m) {
        return this == STATE_DRIFT ? (m + 1) / 2.0 : 1.0;
    }

    /**
     * {@code sum_{m=1..K} factor(m)^2 zeta^-(m-1)}: an agent's K publications compose to one Gaussian mechanism of
     * {@code mu^2 = (Delta_i / sigma_i)^2} times this. Infinite when {@code zeta^-K} overflows.
     */
    double decaySum(double zeta, long publications) {
        if (this == CONDITIONED_ON_STATE) {
            if (zeta == 1) {
                return publications;
            }
            double l = -Math.log(zeta);
            return Math.expm1(publications * l) / Math.expm1(l);
        }
        if (zeta == 1) {
            // sum_{m=1..K} (m + 1)^2 / 4 = ((K + 1)(K + 2)(2K + 3)/6 - 1) / 4
            double k = publications;
            return ((k + 1) * (k + 2) * (2 * k + 3) / 6 - 1) / 4;
        }
        // O(K), compensated (Neumaier) so that the sum does not lose K roundings; it stops once it overflows
        double l = -Math.log(zeta);
        double sum = 0;
        double lost = 0;
        for (long m = 1; m <= publications && Double.isFinite(sum); m++) {
            double f = factor(m);
            double term = f * f * Math.exp((m - 1) * l);
            double t = sum + term;
            lost += Math.abs(sum) >= Math.abs(term) ? (sum - t) + term : (term - t) + sum;
            sum = t;
        }
        return Double.isFinite(sum) ? sum + lost : Double.POSITIVE_INFINITY;
    }

    /**
     * Why DP-RECAL's publications cannot be priced with {@link #STATE_DRIFT} for a model of loss {@code loss} with
     * primal steps {@code tau} against smoothness constants {@code smoothness} (those the steps follow), or null when
     * they can.
     */
    static String whyNotProven(SmoothLoss loss, double[] tau, double[] smoothness) {
        if (loss != SmoothLoss.LEAST_SQUARES) {
            return "the model's loss is " + loss.cliName() + ", whose clipped gradient step is not known to be nonexpansive"
                    + " (the proof needs least squares)";
        }
        for (int i = 0; i < tau.length; i++) {
            // tau_i = scale / (2 L_i); scale 2 gives tau_i L_i = 1 up to rounding
            if (tau[i] * smoothness[i] > 1 + 1e-12) {
                return String.format(java.util.Locale.ROOT, "agent %d's primal step tau = %.6g exceeds 1/L_i = %.6g (a step"
                        + " scale above 2), so its clipped gradient step may not be nonexpansive", i, tau[i], 1 / smoothness[i]);
            }
        }
        return null;
    }
}
