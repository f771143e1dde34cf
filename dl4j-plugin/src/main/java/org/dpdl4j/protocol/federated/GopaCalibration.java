package org.dpdl4j.protocol.federated;

import org.dpdl4j.protocol.decentralized.DecentralizedCalibration;

/**
 * GOPA's noise levels for a per-release kappa budget. The noise that reaches the server's average is the mean
 * of the private terms only (the pairwise terms cancel), so the best pair is the one with the smallest
 * {@code sigma_eta}. Both levels scale together: {@code kappa(sigma_eta, r sigma_eta) = kappa(1, r) / sigma_eta^2},
 * so for each ratio {@code r = sigma_Delta / sigma_eta} of a grid the smallest admissible {@code sigma_eta} is
 * {@code sqrt(kappa(1, r) / budget)} in closed form; the best ratio wins. The grid stops at 1000, well inside the
 * range where the SecRDP accountant is accurate, and large enough that {@code kappa(1, r)} is at its limit
 * (1/K on a connected graph, the central-DP level) for the graphs GOPA uses; a larger ratio is taken only when it
 * lowers sigma_eta by more than 0.1%. As for Decor, {@code sigma_Delta} stays within
 * {@link DecentralizedCalibration#MAX_SIGMA_COR_OVER_SIGMA_LDP} times the local-DP level {@code 1/sqrt(budget)}: the
 * pairwise terms must cancel in the sum, and in float arithmetic a term of size s leaves about 1e-7 s behind.
 */
public final class GopaCalibration {
    /** The ratios sigma_Delta / sigma_eta tried; 0 is GOPA without pairwise noise (local DP). */
    static final double[] RATIOS = {0, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};

    private GopaCalibration() {
    }

    /**
     * Calibrated levels.
     *
     * @param sigmaPrivate  sigma_eta
     * @param sigmaPairwise sigma_Delta
     * @param kappa         the kappa they achieve (at most the budget)
     */
    public record Levels(double sigmaPrivate, double sigmaPairwise, GopaKappa kappa) {
    }

    /** The levels with the smallest sigma_eta whose kappa is at most {@code kappaBudget}. */
    public static Levels calibrate(GopaAccountant accountant, double kappaBudget) {
        if (!(kappaBudget > 0) || Double.isInfinite(kappaBudget)) {
            throw new IllegalArgumentException("kappa budget must be a positive finite number, got " + kappaBudget);
        }
        double bestSigma = Double.POSITIVE_INFINITY;
        double bestRatio = 0;
        double maxPairwise = DecentralizedCalibration.MAX_SIGMA_COR_OVER_SIGMA_LDP / Math.sqrt(kappaBudget);
        for (double r : RATIOS) {
            double sigma = Math.sqrt(accountant.kappa(1.0, r).kappa() / kappaBudget);
            if (r * sigma > maxPairwise) {
                break;   // larger ratios only grow sigma_Delta further
            }
            // A larger ratio must buy a real improvement: huge pairwise terms cost float precision in the parties' values.
            if (sigma < bestSigma * (1 - 1e-3)) {
                bestSigma = sigma;
                bestRatio = r;
            }
        }
        // Guard against rounding: the achieved kappa must not exceed the budget.
        GopaKappa achieved = accountant.kappa(bestSigma, bestRatio * bestSigma);
        for (int i = 0; i < 60 && achieved.kappa() > kappaBudget; i++) {
            bestSigma *= 1 + 1e-12 * (1L << Math.min(i, 40));
            achieved = accountant.kappa(bestSigma, bestRatio * bestSigma);
        }
        if (achieved.kappa() > kappaBudget) {
            throw new IllegalStateException("GOPA calibration could not meet kappa budget " + kappaBudget + " (got " + achieved.kappa() + ")");
        }
        return new Levels(bestSigma, bestRatio * bestSigma, achieved);
    }
}
