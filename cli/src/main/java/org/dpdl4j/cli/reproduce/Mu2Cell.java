package org.dpdl4j.cli.reproduce;

/**
 * One configuration of the DP-mu^2-FL grid and what it measured.
 *
 * @param trust         "untrusted", "trusted", or "none" for the non-private reference
 * @param machines      M
 * @param rounds        T (examples per machine, each used once)
 * @param epsilon       target epsilon (+Infinity for the reference)
 * @param achievedEps   epsilon the accountant gives for the run (NaN for the reference)
 * @param sigma         noise std (0 for the reference)
 * @param stepSize      eta
 * @param testLoss      test cross-entropy at the final query point
 * @param testAccuracy  test accuracy
 * @param trainLoss     training cross-entropy
 * @param clippedRounds rounds in which the safety clip scaled at least one increment
 * @param seconds       wall time of the training
 * @param paperLoss     the paper's test loss (NaN off its grid)
 * @param paperAccuracy the paper's test accuracy (NaN off its grid)
 */
record Mu2Cell(String trust, int machines, long rounds, double epsilon, double achievedEps, double sigma, double stepSize, double testLoss,
               double testAccuracy, double trainLoss, long clippedRounds, double seconds, double paperLoss, double paperAccuracy) {

    boolean isReference() {
        return trust.equals("none");
    }
}
