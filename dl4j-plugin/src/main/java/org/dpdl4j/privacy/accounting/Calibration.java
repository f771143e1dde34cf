package org.dpdl4j.privacy.accounting;

/**
 * The result of a noise calibration.
 *
 * @param noise the calibrated noise parameter (the conservative end of the final bracket)
 * @param epsilon the epsilon achieved at {@code noise}, never above the target
 * @param targetEpsilon the requested epsilon
 * @param evaluations how many times the epsilon function was evaluated
 */
public record Calibration(double noise, double epsilon, double targetEpsilon, int evaluations) {
}
