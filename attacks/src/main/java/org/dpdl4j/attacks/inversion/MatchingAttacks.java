package org.dpdl4j.attacks.inversion;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.CaseScorer;
import org.dpdl4j.attacks.GradientForm;
import org.dpdl4j.attacks.Snapshot;
import org.dpdl4j.attacks.Timing;
import org.dpdl4j.attacks.matching.LabelTreatment;
import org.dpdl4j.attacks.matching.MatchingObjective;
import org.dpdl4j.attacks.matching.MatchingProblem;
import org.dpdl4j.attacks.matching.SecondPoint;
import org.dpdl4j.attacks.matching.UnknownLayout;
import org.dpdl4j.attacks.network.OutputHead;
import org.dpdl4j.attacks.network.TargetNetwork;

/** What DLG and iDLG share: build the problem, run the optimiser, score the snapshots and the result. */
final class MatchingAttacks {
    private MatchingAttacks() {
    }

    /**
     * Runs gradient matching on the case.
     *
     * @param labels      unknown (DLG) or fixed (iDLG) labels
     * @param fixedLabels the fixed label of each dummy, or null when labels are unknowns
     */
    static AttackResult run(String name, AttackCase attackCase, TargetNetwork target, LabelTreatment labels,
                            int[] fixedLabels, DlgConfig config) {
        if (target.inputSize() != attackCase.truth().shape().flatSize()) {
            throw new IllegalArgumentException("the model takes " + target.inputSize() + " inputs but the attacked"
                    + " examples are " + attackCase.truth().shape() + " images");
        }
        MatchingProblem problem = new MatchingProblem(target, attackCase.gradientEstimate(target),
                attackCase.batchSize(), labels, !attackCase.scale().knownToAttacker(), secondPoint(attackCase));
        MatchingObjective objective = config.engine().create(problem, config.precision());
        UnknownLayout layout = problem.layout();
        MatchingRun.Outcome run = MatchingRun.run(objective, MatchingRun.randomStart(layout, config.seed()), config);
        String method = objective.description() + ", " + config.optimizer().name() + " x" + config.iterations()
                + ", seed " + config.seed();
        return result(name, method, attackCase, target, layout, fixedLabels, run);
    }

    /** The scored result of a run: every snapshot and the final point scored against the case's ground truth. */
    static AttackResult result(String name, String method, AttackCase attackCase, TargetNetwork target,
                               UnknownLayout layout, int[] fixedLabels, MatchingRun.Outcome run) {
        CaseScorer scorer = new CaseScorer(attackCase);
        List<Snapshot> snapshots = new ArrayList<>();
        for (MatchingRun.PointSnapshot s : run.snapshots()) {
            CaseScorer.Scored scored = scorer.score(dummies(s.point(), layout),
                    labelsAt(s.point(), layout, target.head(), fixedLabels));
            snapshots.add(new Snapshot(s.iteration(), s.evaluations(), s.loss(), scored.mse(), scored.psnr(),
                    scored.ssim(), scored.pixels()));
        }
        CaseScorer.Scored last = scorer.score(dummies(run.point(), layout),
                labelsAt(run.point(), layout, target.head(), fixedLabels));
        return new AttackResult(name, method, attackCase.provenance(), last.images(), last.mse(), last.psnr(),
                last.ssim(), last.labelAccuracy(), run.loss(), scorer.noiseLevel(), snapshots,
                new Timing(run.seconds(), run.evaluations(), run.outerSteps()), run.stopReason(),
                attackCase.truth().shape(), scorer.originals(), last.pixels());
    }

    /** The second evaluation point of a difference observation, null for a plain gradient. */
    static SecondPoint secondPoint(AttackCase attackCase) {
        if (attackCase.form() instanceof GradientForm.Difference d) {
            return new SecondPoint(TargetNetwork.of(attackCase.previousModel()), d.currentWeight(),
                    d.previousWeight());
        }
        return null;
    }

    /** The dummy inputs of a point, one row per dummy. */
    static double[][] dummies(double[] point, UnknownLayout layout) {
        int n = (int) layout.inputSize();
        double[][] rows = new double[layout.batchSize()][];
        for (int d = 0; d < rows.length; d++) {
            rows[d] = Arrays.copyOfRange(point, d * n, (d + 1) * n);
        }
        return rows;
    }

    /** Label of each dummy: the fixed one, or the most likely class of its soft label. */
    static int[] labelsAt(double[] point, UnknownLayout layout, OutputHead head, int[] fixedLabels) {
        if (fixedLabels != null) {
            return fixedLabels.clone();
        }
        int k = (int) layout.labelSize();
        int[] labels = new int[layout.batchSize()];
        for (int d = 0; d < labels.length; d++) {
            int offset = layout.labelOffset() + d * k;
            if (head == OutputHead.SIGMOID_CROSS_ENTROPY && k == 1) {
                labels[d] = point[offset] > 0 ? 1 : 0;
            } else {
                int best = 0;
                for (int c = 1; c < k; c++) {
                    if (point[offset + c] > point[offset + best]) {
                        best = c;
                    }
                }
                labels[d] = best;
            }
        }
        return labels;
    }
}
