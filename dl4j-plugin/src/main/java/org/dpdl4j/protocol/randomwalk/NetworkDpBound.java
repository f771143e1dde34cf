package org.dpdl4j.protocol.randomwalk;

/**
 * The optional network-DP bound of random-walk SGD (spec 7.4) <b>[derived by the spec author; needs review
 * before it is used as a guarantee]</b>. Assumptions: convex, beta-smooth, L_F-Lipschitz local losses, a
 * constant step {@code gamma <= 2 / beta} (so every gradient step is non-expansive), and a party k that knows
 * neither the global time nor who held the token.
 *
 * <p>A contribution of party l that k first observes after j noisy steps (l's own included) has, by
 * amplification by iteration, Renyi divergence at most {@code alpha c / j} with {@code c = 2 L_F^2 / sigma^2}; the
 * hitting time {@code j ~ Geometric(1/K)} is hidden from k, and the mixture bound gives per contribution
 * <pre>
 *   eps_c(alpha) = (1/(alpha-1)) ln sum_{j>=1} (1/K)(1-1/K)^{j-1} exp((alpha-1) alpha c / j).
 * </pre>
 * Each term is at most the corresponding term with j = 1, so {@code eps_c(alpha) <= alpha c}, the local-DP cost of
 * one visit: the bound never exceeds the LDP bound. The series is summed in log space up to the index J where the
 * geometric tail {@code (1-1/K)^J} is negligible, and the tail is added as the upper bound
 * {@code (1-1/K)^J exp((alpha-1) alpha c / (J+1))} (so the result stays an upper bound). It ignores several
 * contributions of l between two visits of k, which is valid only when they are rare.
 */
public final class NetworkDpBound {
    private static final double TAIL = 1e-16;

    private NetworkDpBound() {
    }

    /**
     * The per-contribution curve {@code eps_c(alpha)} at each order.
     *
     * @param orders  RDP orders, each &gt; 1
     * @param parties K &gt;= 1
     * @param c       {@code 2 L_F^2 / sigma^2}, the LDP RDP slope of one visit
     */
    public static double[] perContribution(double[] orders, int parties, double c) {
        if (parties < 1) {
            throw new IllegalArgumentException("the number of parties K must be >= 1, got " + parties);
        }
        if (!(c >= 0) || Double.isInfinite(c)) {
            throw new IllegalArgumentException("the per-visit slope 2 L_F^2 / sigma^2 must be finite and >= 0, got " + c);
        }
        double[] out = new double[orders.length];
        for (int i = 0; i < orders.length; i++) {
            out[i] = atOrder(orders[i], parties, c);
        }
        return out;
    }

    /** {@code eps_c(alpha)}, never above {@code alpha c}. */
    static double atOrder(double alpha, int parties, double c) {
        if (!(alpha > 1) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("RDP order must be a finite number > 1, got " + alpha);
        }
        double ldp = alpha * c;
        if (parties == 1 || c == 0) {
            return ldp;
        }
        double logStay = Math.log1p(-1.0 / parties);
        double logFirst = -Math.log(parties);
        double a = (alpha - 1) * alpha * c;
        // log-sum-exp over j = 1..J of logFirst + (j-1) logStay + a / j, with the running maximum as the shift.
        double max = Double.NEGATIVE_INFINITY;
        double sum = 0;
        long j = 1;
        while (true) {
            double term = logFirst + (j - 1) * logStay + a / j;
            if (term > max) {
                sum = sum * Math.exp(max - term) + 1.0;
                max = term;
            } else {
                sum += Math.exp(term - max);
            }
            double logTail = j * logStay + a / (j + 1);
            if (logTail - max - Math.log(sum) < Math.log(TAIL) || j > 100_000_000L) {
                sum += Math.exp(logTail - max);
                break;
            }
            j++;
        }
        double value = (max + Math.log(sum)) / (alpha - 1);
        return Math.min(value, ldp);
    }
}
