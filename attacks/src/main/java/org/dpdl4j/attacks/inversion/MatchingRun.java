package org.dpdl4j.attacks.inversion;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.dpdl4j.attacks.StopReason;
import org.dpdl4j.attacks.matching.MatchingObjective;
import org.dpdl4j.attacks.matching.UnknownLayout;
import org.dpdl4j.attacks.optim.Minimizer;
import org.dpdl4j.attacks.optim.StepOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an optimiser on a matching objective for a number of outer steps, keeping the point at the snapshot
 * iterations (with its matching loss, evaluated there) and stopping early only where that changes nothing
 * (a stationary point) or the loss stops being a number.
 */
final class MatchingRun {
    private static final Logger LOG = LoggerFactory.getLogger(MatchingRun.class);

    /** A point of the run: after {@code iteration} outer steps. */
    record PointSnapshot(int iteration, long evaluations, double loss, double[] point) {
    }

    /** Everything the run produced. */
    record Outcome(List<PointSnapshot> snapshots, double[] point, double loss, StopReason stopReason, int outerSteps,
                   long evaluations, double seconds) {
    }

    private MatchingRun() {
    }

    /** The dummy start: {@code x' ~ N(0, 1)}, then {@code u' ~ N(0, 1)} when labels are unknowns; log-scale 0. */
    static double[] randomStart(UnknownLayout layout, long seed) {
        Random random = new Random(seed);
        double[] point = new double[layout.dimension()];
        int gaussians = layout.fittedScale() ? point.length - 1 : point.length;
        for (int i = 0; i < gaussians; i++) {
            point[i] = random.nextGaussian();
        }
        return point;
    }

    static Outcome run(MatchingObjective objective, double[] start, DlgConfig config) {
        Minimizer minimizer = config.optimizer().newMinimizer();
        double[] point = start.clone();
        double[] scratch = new double[point.length];
        long extraEvaluations = 0;
        long begin = System.nanoTime();
        List<PointSnapshot> snapshots = new ArrayList<>();
        double loss = objective.evaluate(point, scratch);
        extraEvaluations++;
        snapshots.add(new PointSnapshot(0, 0, loss, point.clone()));
        StopReason reason = StopReason.COMPLETED;
        int steps = 0;
        for (int it = 1; it <= config.iterations(); it++) {
            double[] before = point.clone();
            StepOutcome step = minimizer.step(objective, point);
            steps = it;
            if (!step.isFinite() || !allFinite(point)) {
                System.arraycopy(before, 0, point, 0, point.length);
                reason = StopReason.DIVERGED;
                LOG.warn("matching loss became {} at outer step {}; keeping the point before that step",
                        step.lastLoss(), it);
                break;
            }
            if (step.stationary()) {
                reason = StopReason.STATIONARY;
                LOG.debug("stationary after {} outer steps (loss {})", it - 1, step.lossAtStart());
                loss = step.lossAtStart();
                for (int later = it; later <= config.iterations(); later++) {
                    if (isSnapshot(later, config)) {
                        snapshots.add(new PointSnapshot(later, minimizer.evaluations() + extraEvaluations, loss,
                                point.clone()));
                    }
                }
                break;
            }
            if (isSnapshot(it, config)) {
                loss = objective.evaluate(point, scratch);
                extraEvaluations++;
                snapshots.add(new PointSnapshot(it, minimizer.evaluations() + extraEvaluations, loss, point.clone()));
            }
        }
        if (reason == StopReason.DIVERGED) {
            loss = objective.evaluate(point, scratch);
            extraEvaluations++;
        } else {
            // The last outer step is always a snapshot iteration, so its loss is at hand.
            loss = snapshots.get(snapshots.size() - 1).loss();
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        return new Outcome(snapshots, point, loss, reason, steps, minimizer.evaluations() + extraEvaluations, seconds);
    }

    private static boolean isSnapshot(int iteration, DlgConfig config) {
        return iteration % config.snapshotEvery() == 0 || iteration == config.iterations();
    }

    /** Whether every value is finite (neither NaN nor infinite). */
    static boolean allFinite(double[] v) {
        for (double d : v) {
            if (!Double.isFinite(d)) {
                return false;
            }
        }
        return true;
    }
}
