package org.dpdl4j.privacy.accounting.correlated;

import java.util.List;

/**
 * Outcome of a noise-pair calibration.
 *
 * @param target what was asked
 * @param baselines per-step budget and the LDP / CDP noise levels bounding the sigmaCdp grid
 * @param feasible one pair per feasible grid value of sigmaCdp, in increasing sigmaCdp
 * @param infeasibleGridValues grid values of sigmaCdp for which no finite sigmaCor meets the target
 *     (those too close to the CDP level)
 */
public record CalibrationResult(CalibrationTarget target, DecorBaselines baselines, List<CalibratedPair> feasible,
        int infeasibleGridValues) {

    /** Copies. */
    public CalibrationResult {
        feasible = List.copyOf(feasible);
    }

    /**
     * The three candidates of the Decor procedure, to be tuned with the learning rate: smallest
     * feasible sigmaCdp, the middle one, the largest (fewer if fewer are feasible).
     */
    public List<CalibratedPair> candidates() {
        int k = feasible.size();
        if (k <= 3) {
            return feasible;
        }
        return List.of(feasible.get(0), feasible.get((k - 1) / 2), feasible.get(k - 1));
    }
}
