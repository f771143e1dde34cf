package org.dpdl4j.privacy.accounting.correlated;

import java.util.ArrayList;
import java.util.List;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calibrates (sigmaCdp, sigmaCor) pairs to a total (epsilon, delta) budget (Decor section 3.5.3,
 * App. D.1), for any adversary.
 *
 * <p>sigmaCdp runs over a linear grid on {@code [sigmaCdpCentral, sigmaLdp]}. Below the CDP level no
 * sigmaCor helps, since kappa only falls to {@code 1/(n sigmaCdp^2)}; a grid value whose
 * {@link SecRdpAccountant#kappaInfimum infimum} already misses the budget is skipped. For each other
 * value, sigmaCor is found by a bracketing root search on {@code ln sigmaCor} (kappa is non-increasing
 * in sigmaCor): bracket by halving/doubling from the previous grid value's answer (valid as a
 * feasible start, because kappa is also non-increasing in sigmaCdp), then Illinois-accelerated
 * regula falsi, which keeps the bracket like bisection but needs far fewer kappa evaluations. The
 * feasible end is returned, so the achieved epsilon is always at or below the target; the search
 * stops once it is within {@link #RELATIVE_TOLERANCE} of it.
 */
public final class NoisePairCalibrator {
    /** The achieved epsilon lies in {@code [target (1 - tol), target]}. */
    public static final double RELATIVE_TOLERANCE = 1e-9;
    /** Halvings or doublings tried while bracketing sigmaCor. */
    private static final int MAX_BRACKET_STEPS = 200;
    private static final int MAX_REFINEMENTS = 200;

    private static final Logger LOG = LoggerFactory.getLogger(NoisePairCalibrator.class);

    private final SecRdpAccountant accountant;

    /** A calibrator over the accountant's graph. */
    public NoisePairCalibrator(SecRdpAccountant accountant) {
        this.accountant = accountant;
    }

    /** Runs the calibration. */
    public CalibrationResult calibrate(CalibrationTarget target) {
        long t0 = System.nanoTime();
        int n = accountant.graph().vertexCount();
        DecorBaselines base = DecorBaselines.of(target.epsilon(), target.delta(), target.steps(), target.sensitivity(), n);
        List<CalibratedPair> feasible = new ArrayList<>();
        int infeasible = 0;
        double previousSigmaCor = Double.NaN;
        int evaluations = 0;
        for (int g = 0; g < target.gridSize(); g++) {
            double sigmaCdp = g == target.gridSize() - 1 ? base.sigmaLdp()
                    : base.sigmaCdpCentral() + g * (base.sigmaLdp() - base.sigmaCdpCentral()) / (target.gridSize() - 1);
            Search search = new Search(target, sigmaCdp);
            if (!search.possible()) {
                infeasible++;
                continue;
            }
            CalibratedPair pair = search.solve(previousSigmaCor);
            evaluations += search.evaluations;
            if (pair == null) {
                infeasible++;
                continue;
            }
            feasible.add(pair);
            previousSigmaCor = pair.sigmaCor();
        }
        LOG.debug("calibrated {} pairs ({} grid values infeasible) with {} kappa evaluations in {} ms", feasible.size(), infeasible,
                evaluations, (System.nanoTime() - t0) / 1_000_000);
        return new CalibrationResult(target, base, feasible, infeasible);
    }

    /** The sigmaCor search at one sigmaCdp. */
    private final class Search {
        private final CalibrationTarget target;
        private final double sigmaCdp;
        int evaluations;

        Search(CalibrationTarget target, double sigmaCdp) {
            this.target = target;
            this.sigmaCdp = sigmaCdp;
        }

        boolean possible() {
            double inf = accountant.kappaInfimum(sigmaCdp, target.adversary());
            double rho = target.steps() * 0.5 * target.sensitivity() * target.sensitivity() * inf;
            return ZCdp.epsilon(rho, target.delta()) < target.epsilon();
        }

        /** The guarantee at sigmaCor. */
        SecRdpGuarantee evaluate(double sigmaCor) {
            evaluations++;
            KappaResult k = accountant.kappa(new CorrelatedNoise(sigmaCdp, sigmaCor), target.adversary());
            return SecRdpGuarantee.of(k, target.sensitivity(), target.steps(), target.delta());
        }

        /** Whether the guarantee meets the target (compared directly, not through a rounded ratio). */
        boolean meets(SecRdpGuarantee g) {
            return g.epsilon() <= target.epsilon();
        }

        /** {@code ln(eps / target)}, the function whose root is interpolated. */
        double excess(SecRdpGuarantee g) {
            return Math.log(g.epsilon() / target.epsilon());
        }

        CalibratedPair solve(double warmStart) {
            SecRdpGuarantee atZero = evaluate(0.0);
            if (meets(atZero)) {
                return new CalibratedPair(atZero.kappa().noise(), atZero);
            }
            double hi = Double.isNaN(warmStart) || warmStart <= 0 ? sigmaCdp : warmStart;
            SecRdpGuarantee gHi = evaluate(hi);
            double lo;
            SecRdpGuarantee gLo;
            if (meets(gHi)) {
                lo = hi;
                gLo = gHi;
                int k = 0;
                while (meets(gLo)) {
                    if (++k > MAX_BRACKET_STEPS) {
                        return new CalibratedPair(gHi.kappa().noise(), gHi);
                    }
                    hi = lo;
                    gHi = gLo;
                    lo = lo / 2;
                    gLo = evaluate(lo);
                }
            } else {
                lo = hi;
                gLo = gHi;
                int k = 0;
                while (!meets(gHi)) {
                    if (++k > MAX_BRACKET_STEPS) {
                        LOG.debug("sigma_cdp = {}: no sigma_cor up to {} meets the target", sigmaCdp, hi);
                        return null;
                    }
                    lo = hi;
                    gLo = gHi;
                    hi = hi * 2;
                    gHi = evaluate(hi);
                }
            }
            return refine(lo, gLo, hi, gHi);
        }

        /**
         * Illinois regula falsi on {@code x = ln sigmaCor} keeping lo infeasible and hi feasible; the
         * stored function value of a side that is kept twice in a row is halved (Illinois), which only
         * steers the interpolation.
         */
        private CalibratedPair refine(double lo, SecRdpGuarantee gLo, double hi, SecRdpGuarantee gHi) {
            double xLo = Math.log(lo);
            double xHi = Math.log(hi);
            double fLo = excess(gLo);
            double fHi = excess(gHi);
            int lastSide = 0;
            for (int it = 0; it < MAX_REFINEMENTS; it++) {
                if (gHi.epsilon() >= target.epsilon() * (1 - RELATIVE_TOLERANCE)
                        || xHi - xLo <= 1e-15 * Math.max(1.0, Math.abs(xHi))) {
                    break;
                }
                double x = xHi - fHi * (xHi - xLo) / (fHi - fLo);
                if (!(x > xLo && x < xHi)) {
                    x = 0.5 * (xLo + xHi);
                }
                SecRdpGuarantee gx = evaluate(Math.exp(x));
                double fx = excess(gx);
                if (meets(gx)) {
                    xHi = x;
                    fHi = fx;
                    gHi = gx;
                    if (lastSide == -1) {
                        fLo *= 0.5;
                    }
                    lastSide = -1;
                } else {
                    xLo = x;
                    fLo = fx;
                    if (lastSide == 1) {
                        fHi *= 0.5;
                    }
                    lastSide = 1;
                }
            }
            return new CalibratedPair(gHi.kappa().noise(), gHi);
        }
    }
}
