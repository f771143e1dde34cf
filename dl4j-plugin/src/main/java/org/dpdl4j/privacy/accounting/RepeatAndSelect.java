package org.dpdl4j.privacy.accounting;

import java.util.Objects;

/**
 * The Renyi-DP cost of hyperparameter tuning by random repetition (Papernot &amp; Steinke, "Hyperparameter Tuning with
 * Renyi Differential Privacy", ICLR 2022): run a random number K of candidates, each a mechanism with RDP curve
 * {@code eps(lambda)}, and release only the best. Both of the paper's distributions of K:
 * <ul>
 *   <li><b>truncated negative binomial</b> {@code D_(eta, gamma)} (Theorem 2; eta = 0 is the logarithmic distribution,
 *       eta = 1 the geometric): for every {@code lambda > 1} and {@code lambda-hat >= 1},
 *       <pre>eps'(lambda) = eps(lambda) + (1 + eta)(1 - 1/lambda-hat) eps(lambda-hat) + (1 + eta) ln(1/gamma) / lambda-hat
 *               + ln(E[K]) / (lambda - 1);</pre></li>
 *   <li><b>Poisson</b> with mean mu (Theorem 6): if the candidate is also (eps-hat, delta-hat)-DP with
 *       {@code e^eps-hat <= 1 + 1/(lambda - 1)}, then {@code eps'(lambda) = eps(lambda) + mu delta-hat + ln(mu) / (lambda - 1)};
 *       eps-hat is taken at that limit and delta-hat from the candidate's own RDP curve.</li>
 * </ul>
 * Both are computed on the candidate curve's orders: lambda-hat ranges over those orders (a minimum over a subset of
 * the theorem's range, so never below the true optimum), and a last pass applies the monotonicity of RDP in the
 * order ({@code eps'(lambda) <= eps'(lambda')} for {@code lambda <= lambda'}).
 */
public final class RepeatAndSelect {
    private static final double BISECTION_TOLERANCE = 1e-12;

    private RepeatAndSelect() {
    }

    /** E[K] under the truncated negative binomial {@code D_(eta, gamma)}, eta > -1, gamma in (0, 1). */
    public static double truncatedNegativeBinomialMean(double eta, double gamma) {
        requireParameters(eta, gamma);
        if (eta == 0) {
            return (1 / gamma - 1) / Math.log(1 / gamma);
        }
        return eta * (1 - gamma) / (gamma * (1 - Math.pow(gamma, eta)));
    }

    /**
     * The gamma whose {@code D_(eta, gamma)} has mean {@code mean} (> 1): 1/mean for the geometric eta = 1, otherwise
     * by bisection (the mean decreases in gamma), returning the smaller end, whose mean is at least the target: the
     * conservative side, since the cost grows with ln(1/gamma).
     */
    public static double gammaForMean(double eta, double mean) {
        if (!(mean > 1) || Double.isInfinite(mean)) {
            throw new IllegalArgumentException("the expected number of candidates must be finite and > 1, got " + mean);
        }
        if (eta == 1) {
            return 1 / mean;
        }
        requireParameters(eta, 0.5);
        double low = 0;
        double high = 1;
        while (high - low > BISECTION_TOLERANCE) {
            double mid = (low + high) / 2;
            if (truncatedNegativeBinomialMean(eta, mid) > mean) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return low > 0 ? low : Double.MIN_NORMAL;
    }

    /**
     * Theorem 2: the RDP curve of releasing the best of K ~ D_(eta, gamma) candidates.
     *
     * @param orders    the orders, each > 1, ascending
     * @param candidate one candidate's RDP curve on those orders
     */
    public static double[] truncatedNegativeBinomial(double[] orders, double[] candidate, double eta, double gamma) {
        requireCurve(orders, candidate);
        requireParameters(eta, gamma);
        double logMean = Math.log(truncatedNegativeBinomialMean(eta, gamma));
        double best = Double.POSITIVE_INFINITY;   // min over lambda-hat of (1 - 1/lambda-hat) eps(lambda-hat) + ln(1/gamma)/lambda-hat
        for (int j = 0; j < orders.length; j++) {
            best = Math.min(best, (1 - 1 / orders[j]) * candidate[j] + Math.log(1 / gamma) / orders[j]);
        }
        double shared = (1 + eta) * best;
        double[] out = new double[orders.length];
        for (int i = 0; i < orders.length; i++) {
            out[i] = candidate[i] + logMean / (orders[i] - 1) + shared;
        }
        return monotone(out);
    }

    /**
     * Theorem 6: the RDP curve of releasing the best of K ~ Poisson(mu) candidates (mu >= 1; with mu < 1 most runs
     * release nothing, and the bound is not used here).
     */
    public static double[] poisson(double[] orders, double[] candidate, double mu) {
        requireCurve(orders, candidate);
        if (!(mu >= 1) || Double.isInfinite(mu)) {
            throw new IllegalArgumentException("the Poisson mean number of candidates must be finite and >= 1, got " + mu);
        }
        double[] out = new double[orders.length];
        for (int i = 0; i < orders.length; i++) {
            double epsilonHat = Math.log1p(1 / (orders[i] - 1));
            out[i] = candidate[i] + mu * delta(orders, candidate, epsilonHat) + Math.log(mu) / (orders[i] - 1);
        }
        return monotone(out);
    }

    /** The smallest delta at which the curve gives (epsilon, delta)-DP, over its orders and both conversions. */
    static double delta(double[] orders, double[] curve, double epsilon) {
        double logDelta = 0;
        for (int j = 0; j < orders.length; j++) {
            if (curve[j] == 0) {
                return 0;
            }
            for (Conversion c : Conversion.values()) {
                logDelta = Math.min(logDelta, c.logDelta(orders[j], curve[j], epsilon));
            }
        }
        return Math.exp(logDelta);
    }

    /** {@code out[i] = min_{j >= i} values[j]}: RDP is non-decreasing in the order. */
    private static double[] monotone(double[] values) {
        double[] out = values.clone();
        for (int i = out.length - 2; i >= 0; i--) {
            out[i] = Math.min(out[i], out[i + 1]);
        }
        return out;
    }

    private static void requireParameters(double eta, double gamma) {
        if (!(eta > -1) || Double.isInfinite(eta)) {
            throw new IllegalArgumentException("the truncated negative binomial needs eta > -1, got " + eta);
        }
        if (!(gamma > 0 && gamma < 1)) {
            throw new IllegalArgumentException("the truncated negative binomial needs gamma in (0, 1), got " + gamma);
        }
    }

    private static void requireCurve(double[] orders, double[] curve) {
        Objects.requireNonNull(orders, "orders");
        Objects.requireNonNull(curve, "curve");
        if (orders.length == 0 || orders.length != curve.length) {
            throw new IllegalArgumentException("a curve needs one value per order: " + curve.length + " values for " + orders.length
                    + " orders");
        }
        for (int i = 0; i < orders.length; i++) {
            if (!(orders[i] > 1) || (i > 0 && orders[i] <= orders[i - 1])) {
                throw new IllegalArgumentException("orders must be > 1 and strictly ascending; got " + orders[i] + " at " + i);
            }
            if (!(curve[i] >= 0)) {
                throw new IllegalArgumentException("an RDP curve is >= 0, got " + curve[i] + " at order " + orders[i]);
            }
        }
    }
}
