package org.dpdl4j.attacks;

/**
 * Cost of an attack.
 *
 * @param seconds     wall-clock time of the attack itself (not of building the case)
 * @param evaluations matching-loss evaluations (value and gradient)
 * @param outerSteps  optimiser outer steps run
 */
public record Timing(double seconds, long evaluations, int outerSteps) {

    /** Mean seconds per evaluation, NaN without evaluations. */
    public double secondsPerEvaluation() {
        return evaluations == 0 ? Double.NaN : seconds / evaluations;
    }
}
