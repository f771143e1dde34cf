package org.dpdl4j.experiments.reproduce;

/**
 * One configuration of the DP-mu^2-FL grid and what it measured: one run (one seed), or the mean over seeds.
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
 * @param clippedRounds rounds in which the clip S scaled at least one increment
 * @param seconds       wall time of the training
 * @param paperLoss     the paper's test loss (NaN off its grid)
 * @param paperAccuracy the paper's test accuracy (NaN off its grid)
 * @param seed          the seed of the split and the noise (of the first run, for a mean)
 * @param runs          1 for one run; the number of seeds for a mean
 * @param testLossStd   standard deviation of the test loss over the seeds (0 for one run)
 * @param accuracyStd   standard deviation of the test accuracy over the seeds (0 for one run)
 */
record Mu2Cell(String trust, int machines, long rounds, double epsilon, double achievedEps, double sigma, double stepSize, double testLoss,
               double testAccuracy, double trainLoss, long clippedRounds, double seconds, double paperLoss, double paperAccuracy, long seed,
               int runs, double testLossStd, double accuracyStd) {

    /** The mean over runs of one configuration (the same but for the seed); sample standard deviations. */
    static Mu2Cell mean(java.util.List<Mu2Cell> runs) {
        Mu2Cell first = runs.get(0);
        double[] loss = runs.stream().mapToDouble(Mu2Cell::testLoss).toArray();
        double[] acc = runs.stream().mapToDouble(Mu2Cell::testAccuracy).toArray();
        return new Mu2Cell(first.trust, first.machines, first.rounds, first.epsilon, first.achievedEps, first.sigma, first.stepSize,
                mean(loss), mean(acc), runs.stream().mapToDouble(Mu2Cell::trainLoss).average().orElseThrow(),
                runs.stream().mapToLong(Mu2Cell::clippedRounds).sum(), runs.stream().mapToDouble(Mu2Cell::seconds).sum(), first.paperLoss,
                first.paperAccuracy, first.seed, runs.size(), std(loss), std(acc));
    }

    private static double mean(double[] v) {
        return java.util.Arrays.stream(v).average().orElseThrow();
    }

    private static double std(double[] v) {
        if (v.length < 2) {
            return 0;
        }
        double m = mean(v);
        return Math.sqrt(java.util.Arrays.stream(v).map(x -> (x - m) * (x - m)).sum() / (v.length - 1));
    }

    boolean isReference() {
        return trust.equals("none");
    }
}
