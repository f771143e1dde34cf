package org.dpdl4j.attacks.inversion;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.InputNormalization;
import org.dpdl4j.attacks.LabelRows;
import org.dpdl4j.attacks.StopReason;
import org.dpdl4j.attacks.matching.LabelTreatment;
import org.dpdl4j.attacks.matching.MatchingEngine;
import org.dpdl4j.attacks.matching.MatchingLoss;
import org.dpdl4j.attacks.matching.MatchingObjective;
import org.dpdl4j.attacks.matching.MatchingProblem;
import org.dpdl4j.attacks.matching.UnknownLayout;
import org.dpdl4j.attacks.network.TargetNetwork;
import org.dpdl4j.models.ImageShape;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * Inverting Gradients (Geiping, Bauermeister, Dröge, Moeller 2020): the labels are read from the output layer's
 * gradient ({@link LabelRecovery}), then dummy images are fitted to the observed gradient's <i>direction</i> (by
 * default the mean of the layers' cosine distances, {@link MatchingLoss#LAYERWISE_COSINE_DISTANCE}, which keeps the
 * first layers' say once training has made the last layers' gradients dominate; or the whole gradient's, as in the
 * paper) with a total-variation prior, by Adam on the signed gradient with a
 * step schedule, inside the box of valid pixels, from several random starts; the start with the lowest matching loss
 * is reported. Matching the direction alone makes the attack indifferent to the scale of the message (a learning
 * rate, clipping); the prior and the box keep it on images. Any network the plain-Java engine supports: dense,
 * convolution and pooling layers, any of their activations.
 */
public final class InvertingGradientsAttack implements InversionAttack {
    private final InvertingGradientsConfig config;

    public InvertingGradientsAttack(InvertingGradientsConfig config) {
        this.config = Objects.requireNonNull(config, "config must not be null; use InvertingGradientsConfig.defaults()");
    }

    @Override
    public String name() {
        return "ig";
    }

    @Override
    public AttackResult attack(AttackCase attackCase) {
        Objects.requireNonNull(attackCase, "attack case must not be null");
        TargetNetwork target = attackCase.target();
        int batch = attackCase.batchSize();
        int[] labels = LabelRecovery.recoverBatch(target, attackCase.gradientEstimate(target), batch);
        MatchingProblem problem = new MatchingProblem(target, attackCase.gradientEstimate(target), batch,
                LabelTreatment.fixed(LabelRows.of(labels, target.outputSize(), DataType.DOUBLE)), false,
                MatchingAttacks.secondPoint(attackCase));
        MatchingObjective objective = MatchingEngine.JAVA.create(problem, DataType.DOUBLE, config.loss());
        UnknownLayout layout = problem.layout();
        ImageShape shape = attackCase.truth().shape();
        if (shape.flatSize() != layout.inputSize()) {
            throw new IllegalArgumentException("the model takes " + layout.inputSize() + " inputs but the attacked"
                    + " examples are " + shape + " images");
        }
        InputNormalization box = attackCase.truth().normalization();
        double low = (0 - box.mean()) / box.std();
        double high = (1 - box.mean()) / box.std();

        MatchingRun.Outcome best = null;
        double seconds = 0;
        long evaluations = 0;
        for (int r = 0; r < config.restarts(); r++) {
            MatchingRun.Outcome run = descend(objective, layout, shape, low, high, config.seed() + r);
            seconds += run.seconds();
            evaluations += run.evaluations();
            if (best == null || run.loss() < best.loss() || Double.isNaN(best.loss())) {
                best = run;
            }
        }
        MatchingRun.Outcome kept = new MatchingRun.Outcome(best.snapshots(), best.point(), best.loss(), best.stopReason(),
                best.outerSteps(), evaluations, seconds);
        String method = objective.description() + ", total variation " + config.totalVariation() + ", "
                + (config.signed() ? "signed " : "") + "adam lr " + config.learningRate() + " x" + config.iterations()
                + ", lowest matching loss of " + config.restarts() + " start" + (config.restarts() == 1 ? "" : "s")
                + ", labels recovered";
        return MatchingAttacks.result(name(), method, attackCase, target, layout, labels, kept);
    }

    /** One start: Adam on {@code D + tv TV} with the step schedule, projected onto the box after every step. */
    private MatchingRun.Outcome descend(MatchingObjective objective, UnknownLayout layout, ImageShape shape, double low,
                                        double high, long seed) {
        long begin = System.nanoTime();
        int n = layout.dimension();
        Random random = new Random(seed);
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = clamp(random.nextGaussian(), low, high);
        }
        double[] gradient = new double[n];
        double[] m = new double[n];
        double[] v = new double[n];
        double beta1 = 0.9;
        double beta2 = 0.999;
        List<MatchingRun.PointSnapshot> snapshots = new ArrayList<>();
        double loss = objective.evaluate(x, gradient);
        snapshots.add(new MatchingRun.PointSnapshot(0, 1, loss, x.clone()));
        long evaluations = 1;
        StopReason reason = StopReason.COMPLETED;
        int steps = 0;
        // A step that makes the loss or its gradient non-finite ends the start at the last point whose loss was
        // finite: the attack reports that point, never an image of NaNs.
        double[] before = x.clone();
        double pointLoss = loss;
        for (int it = 1; it <= config.iterations(); it++) {
            loss = objective.evaluate(x, gradient);
            evaluations++;
            if (!Double.isFinite(loss)) {
                System.arraycopy(before, 0, x, 0, n);
                reason = StopReason.DIVERGED;
                break;
            }
            pointLoss = loss;
            if (config.totalVariation() > 0) {
                TotalVariation.addTo(x, layout.batchSize(), shape, config.totalVariation(), gradient);
            }
            if (!MatchingRun.allFinite(gradient)) {
                reason = StopReason.DIVERGED;
                break;
            }
            System.arraycopy(x, 0, before, 0, n);
            double rate = config.learningRateAt(it);
            double correction1 = 1 - Math.pow(beta1, it);
            double correction2 = Math.sqrt(1 - Math.pow(beta2, it));
            for (int i = 0; i < n; i++) {
                double g = config.signed() ? Math.signum(gradient[i]) : gradient[i];
                m[i] = beta1 * m[i] + (1 - beta1) * g;
                v[i] = beta2 * v[i] + (1 - beta2) * g * g;
                x[i] = clamp(x[i] - rate / correction1 * m[i] / (Math.sqrt(v[i]) / correction2 + 1e-8), low, high);
            }
            steps = it;
            if (it % config.snapshotEvery() == 0 || it == config.iterations()) {
                double at = objective.evaluate(x, gradient);
                evaluations++;
                snapshots.add(new MatchingRun.PointSnapshot(it, evaluations, at, x.clone()));
            }
        }
        double last = reason == StopReason.COMPLETED ? snapshots.get(snapshots.size() - 1).loss() : pointLoss;
        return new MatchingRun.Outcome(snapshots, x, last, reason, steps, evaluations, (System.nanoTime() - begin) / 1e9);
    }

    private static double clamp(double v, double low, double high) {
        return v < low ? low : (v > high ? high : v);
    }
}
