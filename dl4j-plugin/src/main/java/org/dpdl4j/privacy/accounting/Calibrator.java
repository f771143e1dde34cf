package org.dpdl4j.privacy.accounting;

import java.util.Objects;
import java.util.function.DoubleFunction;
import java.util.function.DoubleUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the smallest noise that meets a target epsilon, for any mechanism whose epsilon is a
 * non-increasing function of one noise parameter. Generic: the epsilon comes from a function, or
 * from an accountant (forked, so its ledger is untouched) plus a noise-to-event function.
 *
 * <p>Procedure: bracket from noise 1 (double {@code hi} until {@code eps(hi) <= target}, halve
 * {@code lo} until {@code eps(lo) > target}), then bisect on {@code ln(noise)} until
 * {@code (hi - lo)/hi < 1e-6} or 100 iterations, and return {@code hi}: the achieved epsilon is
 * always at most the target. The bracket is confined to {@code [1e-12, 1e12]}; leaving it means the
 * target is infeasible (or trivially met), and the error says which.
 *
 * <p>A noise found in closed form instead (zCDP's {@code rho(epsilon, delta)} inverted) is exact in real arithmetic
 * only: {@link #safeSide} moves it to the safe side of the target the same way, so that every calibration, searched
 * or closed, spends at most its target.
 */
public final class Calibrator {
    /** Largest noise tried before declaring the target infeasible. */
    public static final double MAX_NOISE = 1e12;
    /** Smallest noise tried before declaring that the epsilon does not depend on the noise. */
    public static final double MIN_NOISE = 1e-12;
    private static final double RELATIVE_WIDTH = 1e-6;
    private static final int MAX_BISECTIONS = 100;
    /** The most a closed form's noise is raised for rounding: about a thousand steps of 1e-12. */
    static final double MAX_ROUNDING = 1e-9;
    private static final Logger LOG = LoggerFactory.getLogger(Calibrator.class);

    private Calibrator() {
    }

    /**
     * Calibrates a noise parameter against any non-increasing epsilon function.
     *
     * @param epsilonOfNoise noise to epsilon; must be non-increasing and never NaN
     * @param targetEpsilon a positive finite target
     * @throws IllegalArgumentException if the target is not positive and finite, or is infeasible
     */
    public static Calibration calibrate(DoubleUnaryOperator epsilonOfNoise, double targetEpsilon) {
        Objects.requireNonNull(epsilonOfNoise, "epsilon function must not be null");
        if (!(targetEpsilon > 0) || Double.isInfinite(targetEpsilon)) {
            throw new IllegalArgumentException("target epsilon must be a positive finite number, got " + targetEpsilon
                    + ": an infinite target needs no noise at all and a zero or negative one cannot be met by any"
                    + " finite noise");
        }
        Evaluator eps = new Evaluator(epsilonOfNoise);
        double lo;
        double hi = 1.0;
        double hiEps = eps.at(hi);
        if (hiEps > targetEpsilon) {
            while (hiEps > targetEpsilon) {
                lo = hi;
                hi *= 2.0;
                if (hi > MAX_NOISE) {
                    throw infeasible(targetEpsilon, lo, hiEps);
                }
                hiEps = eps.at(hi);
            }
            lo = hi / 2.0;
        } else {
            lo = hi / 2.0;
            double loEps = eps.at(lo);
            while (loEps <= targetEpsilon) {
                hi = lo;
                hiEps = loEps;
                lo = hi / 2.0;
                if (lo < MIN_NOISE) {
                    throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "nothing to calibrate:"
                            + " epsilon stays at or below the target %s even at noise %.3g times the sensitivity"
                            + " (epsilon %.4g), so it does not depend on the noise, or the target is beyond what any"
                            + " noise gives (practically no noise meets it); give a smaller target", targetEpsilon, hi,
                            hiEps));
                }
                loEps = eps.at(lo);
            }
        }
        int iterations = 0;
        while ((hi - lo) / hi >= RELATIVE_WIDTH && iterations < MAX_BISECTIONS) {
            double mid = Math.sqrt(lo * hi); // midpoint in ln(noise)
            double midEps = eps.at(mid);
            if (midEps <= targetEpsilon) {
                hi = mid;
                hiEps = midEps;
            } else {
                lo = mid;
            }
            iterations++;
        }
        if (!(hiEps <= targetEpsilon)) {
            throw new IllegalStateException("calibration invariant broken: epsilon " + hiEps + " at noise " + hi
                    + " exceeds the target " + targetEpsilon);
        }
        LOG.debug("calibrated noise {} (epsilon {} <= target {}) after {} evaluations", hi, hiEps, targetEpsilon,
                eps.count);
        return new Calibration(hi, hiEps, targetEpsilon, eps.count);
    }

    /**
     * A noise found in closed form, moved to the safe side of the target: in doubles, the epsilon the accounting
     * computes at the closed form's noise can land a few units in the last place above the target (e.g. 2.0000000000000013
     * for a target of 2). Raises the noise by steps of about 1e-12 of itself until {@code epsilonOfNoise} is at most the
     * target; a noise that already meets it is returned as it is.
     *
     * @param noise          the closed form's noise, positive and finite
     * @param epsilonOfNoise noise to epsilon, computed as the run's ledger will price it; non-increasing, never NaN
     * @param targetEpsilon  a positive finite target
     * @throws IllegalStateException if more than rounding (a relative {@value #MAX_ROUNDING}) separates the closed form
     *                               from the target: then the closed form does not invert this accounting
     */
    public static Calibration safeSide(double noise, DoubleUnaryOperator epsilonOfNoise, double targetEpsilon) {
        Objects.requireNonNull(epsilonOfNoise, "epsilon function must not be null");
        if (!(noise > 0) || Double.isInfinite(noise)) {
            throw new IllegalArgumentException("the closed form's noise must be a positive finite number, got " + noise);
        }
        if (!(targetEpsilon > 0) || Double.isInfinite(targetEpsilon)) {
            throw new IllegalArgumentException("target epsilon must be a positive finite number, got " + targetEpsilon);
        }
        Evaluator eps = new Evaluator(epsilonOfNoise);
        double s = noise;
        double e = eps.at(s);
        while (e > targetEpsilon) {
            if (s > noise * (1 + MAX_ROUNDING)) {
                throw new IllegalStateException(String.format(java.util.Locale.ROOT, "the closed-form noise %s gives epsilon"
                        + " %s, not the target %s: more than rounding apart, so the closed form does not invert this accounting",
                        noise, epsilonOfNoise.applyAsDouble(noise), targetEpsilon));
            }
            s = Math.nextUp(s) * (1 + 1e-12);
            e = eps.at(s);
        }
        return new Calibration(s, e, targetEpsilon, eps.count);
    }

    /**
     * Calibrates the noise of an event added on top of an accountant's current ledger: the epsilon at
     * noise s is that of {@code accountant.copy().compose(eventOfNoise.apply(s))} at the given delta.
     * The accountant itself is never modified.
     */
    public static Calibration calibrate(PrivacyAccountant accountant, DoubleFunction<DpEvent> eventOfNoise,
                                        double delta, Conversion conversion, double targetEpsilon) {
        Objects.requireNonNull(accountant, "accountant must not be null");
        Objects.requireNonNull(eventOfNoise, "noise-to-event function must not be null");
        Objects.requireNonNull(conversion, "conversion must not be null");
        ZCdp.requireDelta(delta);
        return calibrate(s -> accountant.copy().compose(eventOfNoise.apply(s)).epsilon(delta, conversion), targetEpsilon);
    }

    /** {@link #calibrate(PrivacyAccountant, DoubleFunction, double, Conversion, double)} with the standard conversion. */
    public static Calibration calibrate(PrivacyAccountant accountant, DoubleFunction<DpEvent> eventOfNoise,
                                        double delta, double targetEpsilon) {
        return calibrate(accountant, eventOfNoise, delta, Conversion.STANDARD, targetEpsilon);
    }

    /**
     * The smallest noise multiplier z such that {@code steps} Poisson-subsampled Gaussian steps (rate q, add/remove one
     * example) are {@code (targetEpsilon, delta)}-DP by the default accounting (the tightest valid bound; see
     * {@link TightestAccountant}).
     */
    public static double dpSgdNoiseMultiplier(double targetEpsilon, double delta, double samplingRate, long steps) {
        return dpSgdNoiseMultiplier(AccountantFactory.standard(), targetEpsilon, delta, samplingRate, steps);
    }

    /** {@link #dpSgdNoiseMultiplier(double, double, double, long)} priced by the given accountants. */
    public static double dpSgdNoiseMultiplier(AccountantFactory accountants, double targetEpsilon, double delta, double samplingRate,
                                              long steps) {
        DpSgd.requireArguments(samplingRate, steps, delta);
        PrivacyAccountant empty = accountants.create(NeighbouringRelation.ADD_OR_REMOVE_ONE);
        return calibrate(empty, z -> DpSgd.event(samplingRate, z, steps), delta, targetEpsilon).noise();
    }

    private static IllegalArgumentException infeasible(double target, double noise, double epsilon) {
        String why = epsilon == Double.POSITIVE_INFINITY
                ? "the guarantee is unbounded whatever the noise: the ledger holds a release without a guarantee (a"
                        + " NonPrivateEvent, or noise multiplier 0) that this noise cannot offset; remove it"
                : String.format(java.util.Locale.ROOT, "no amount of noise gets below epsilon = %.4g here (what the"
                        + " accounting can certify at this delta, plus any earlier spending in the ledger); raise the"
                        + " target epsilon to at least that, or take a larger delta", epsilon);
        return new IllegalArgumentException(String.format(java.util.Locale.ROOT, "target epsilon %s cannot be reached:"
                + " even noise %.3g times the sensitivity gives epsilon %.4g; %s", target, noise, epsilon, why));
    }

    /** Counts evaluations and rejects NaN, which would silently break the bracket. */
    private static final class Evaluator {
        private final DoubleUnaryOperator f;
        private int count;

        Evaluator(DoubleUnaryOperator f) {
            this.f = f;
        }

        double at(double noise) {
            count++;
            double e = f.applyAsDouble(noise);
            if (Double.isNaN(e)) {
                throw new IllegalArgumentException("epsilon function returned NaN at noise " + noise);
            }
            return e;
        }
    }
}
