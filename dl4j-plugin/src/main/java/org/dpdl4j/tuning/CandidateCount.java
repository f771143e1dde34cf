package org.dpdl4j.tuning;

import java.util.Locale;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.RepeatAndSelect;
import org.dpdl4j.privacy.accounting.RepeatAndSelectEvent;

/**
 * The random number K of candidates of a private tuning run: the truncated negative binomial {@code D_(eta, gamma)}
 * on {1, 2, ...} (eta > -1; 0 is the logarithmic, 1 the geometric distribution), or Poisson (which may be 0: the run
 * then releases nothing). Fixing K in advance would make releasing the best candidate cost up to K times one run;
 * a random K is what lets {@link RepeatAndSelect} bound it by a few times one run.
 */
public final class CandidateCount {
    private static final int MAX_TERMS = 50_000_000;

    private final double mean;
    private final double shape;
    private final double gamma;

    private CandidateCount(double mean, double shape) {
        RepeatAndSelectEvent.requireDistribution(mean, shape);
        this.mean = mean;
        this.shape = shape;
        this.gamma = shape == Double.POSITIVE_INFINITY ? Double.NaN : RepeatAndSelect.gammaForMean(shape, mean);
    }

    /** Truncated negative binomial with this shape eta and (at least) this mean. */
    public static CandidateCount truncatedNegativeBinomial(double eta, double mean) {
        return new CandidateCount(mean, eta);
    }

    /** The geometric distribution (eta = 1) with this mean. */
    public static CandidateCount geometric(double mean) {
        return new CandidateCount(mean, 1);
    }

    /** The logarithmic distribution (eta = 0) with (at least) this mean. */
    public static CandidateCount logarithmic(double mean) {
        return new CandidateCount(mean, 0);
    }

    /** Poisson with this mean (1 to 700; e^-mean underflows beyond). */
    public static CandidateCount poisson(double mean) {
        if (mean > 700) {
            throw new IllegalArgumentException("a Poisson number of candidates is supported up to a mean of 700, got " + mean
                    + "; use the truncated negative binomial for more");
        }
        return new CandidateCount(mean, Double.POSITIVE_INFINITY);
    }

    public boolean isPoisson() {
        return shape == Double.POSITIVE_INFINITY;
    }

    /** E[K] of the distribution as drawn (for the truncated negative binomial, at the gamma actually used). */
    public double mean() {
        return isPoisson() ? mean : RepeatAndSelect.truncatedNegativeBinomialMean(shape, gamma);
    }

    /** P[K = k]. */
    public double probability(long k) {
        if (k < (isPoisson() ? 0 : 1)) {
            return 0;
        }
        double p = first();
        for (long j = isPoisson() ? 0 : 1; j < k; j++) {
            p = next(p, j);
        }
        return p;
    }

    /** A draw of K by inversion of the distribution function. */
    public long sample(RandomGenerator random) {
        Objects.requireNonNull(random, "random");
        double u = random.nextDouble();
        long k = isPoisson() ? 0 : 1;
        double p = first();
        double cumulative = p;
        for (int terms = 0; cumulative < u && terms < MAX_TERMS; terms++) {
            p = next(p, k);
            k++;
            cumulative += p;
            if (p == 0 && k > mean) {
                break;   // the remaining mass is below double precision
            }
        }
        return k;
    }

    /** The ledger event of releasing the best of K candidates, each the mechanism {@code candidate}. */
    public RepeatAndSelectEvent event(DpEvent candidate) {
        return new RepeatAndSelectEvent(candidate, mean, shape);
    }

    /** P[K = smallest k]: e^-mu for Poisson, else P[K = 1]. */
    private double first() {
        if (isPoisson()) {
            return Math.exp(-mean);
        }
        return shape == 0 ? (1 - gamma) / Math.log(1 / gamma) : (1 - gamma) * shape / (Math.pow(gamma, -shape) - 1);
    }

    /** P[K = k + 1] from P[K = k]. */
    private double next(double p, long k) {
        return isPoisson() ? p * mean / (k + 1) : p * (1 - gamma) * (k + shape) / (k + 1);
    }

    @Override
    public String toString() {
        return isPoisson() ? String.format(Locale.ROOT, "Poisson(mean %s)", mean)
                : String.format(Locale.ROOT, "truncated negative binomial(eta %s, gamma %.6g, mean %.4g)", shape, gamma, mean());
    }
}
