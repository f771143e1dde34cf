package org.dpdl4j.attacks.inversion;

import java.util.List;
import java.util.Optional;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.CaseScorer;
import org.dpdl4j.attacks.LabelRows;
import org.dpdl4j.attacks.StopReason;
import org.dpdl4j.attacks.Timing;
import org.dpdl4j.attacks.matching.LabelTreatment;
import org.dpdl4j.attacks.matching.MatchingEngine;
import org.dpdl4j.attacks.matching.MatchingProblem;
import org.dpdl4j.attacks.network.DenseStage;
import org.dpdl4j.attacks.network.LayerGradient;
import org.dpdl4j.attacks.network.TargetNetwork;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exact reconstruction from the first layer when it is dense with a bias: for one example,
 * {@code dL/dW_1[:, r] = x * dL/db_1[r]} (DL4J stores {@code W} as {@code nIn x nOut}), so
 * {@code x = dW_1[:, r] / db_1[r]} for any unit {@code r} with a non-zero bias gradient. Two estimators:
 * <ul>
 *   <li>{@link Estimator#LARGEST_BIAS_ROW} (the default): the unit with the largest {@code |db_1[r]|};</li>
 *   <li>{@link Estimator#LEAST_SQUARES}: {@code x = sum_r db_1[r] dW_1[:, r] / sum_r db_1[r]^2}, the least-squares
 *       fit of the rank-one relation over every unit. Both are exact without noise; with Gaussian noise on the
 *       observation the least-squares estimate uses every row, so its error is about {@code 1/sqrt(units)} of one
 *       row's at equal bias gradients.</li>
 * </ul>
 * Any scale of the observation cancels, and so does a combination of gradients of the same example at two models
 * (a mu^2-SGD increment {@code a dL(x_t)/dW_1 - b dL(x_(t-1))/dW_1 = x (a delta_t - b delta_(t-1))} is rank one in the
 * same {@code x}). The label comes from {@link LabelRecovery} where the network allows it.
 */
public final class AnalyticInversion implements InversionAttack {
    private static final Logger LOG = LoggerFactory.getLogger(AnalyticInversion.class);

    /** How the input is read from the first layer's gradient. */
    public enum Estimator {
        /** {@code dW_1[:, r] / db_1[r]} for the unit with the largest bias gradient. */
        LARGEST_BIAS_ROW,
        /** {@code sum_r db_1[r] dW_1[:, r] / sum_r db_1[r]^2} over all units. */
        LEAST_SQUARES
    }

    private final Estimator estimator;

    /** The inversion from the unit with the largest bias gradient. */
    public AnalyticInversion() {
        this(Estimator.LARGEST_BIAS_ROW);
    }

    /** The inversion with the given estimator. */
    public AnalyticInversion(Estimator estimator) {
        this.estimator = java.util.Objects.requireNonNull(estimator, "estimator must not be null");
    }

    /** The least-squares inversion over every first-layer unit (the best linear use of a noisy observation). */
    public static AnalyticInversion leastSquares() {
        return new AnalyticInversion(Estimator.LEAST_SQUARES);
    }

    public Estimator estimator() {
        return estimator;
    }

    @Override
    public String name() {
        return "analytic";
    }

    @Override
    public AttackResult attack(AttackCase attackCase) {
        long begin = System.nanoTime();
        TargetNetwork target = attackCase.target();
        limitation(target, attackCase.batchSize()).ifPresent(why -> {
            throw new IllegalArgumentException(why);
        });
        List<LayerGradient> gradient = attackCase.gradientEstimate(target);
        INDArray weights = gradient.get(0).weights().castTo(DataType.DOUBLE);
        INDArray bias = gradient.get(0).bias().castTo(DataType.DOUBLE);
        double[] x;
        String method;
        if (estimator == Estimator.LEAST_SQUARES) {
            double energy = bias.mul(bias).sumNumber().doubleValue();
            if (energy == 0) {
                throw new IllegalArgumentException("every first-layer bias gradient is zero (the example's loss gradient"
                        + " vanished), so the input cannot be read from the first layer");
            }
            x = weights.mmul(bias.reshape(bias.length(), 1)).divi(energy).toDoubleVector();
            method = "x = sum_r db1[r] dW1[:, r] / sum_r db1[r]^2 over " + bias.length() + " units";
        } else {
            int unit = 0;
            for (int r = 1; r < bias.length(); r++) {
                if (Math.abs(bias.getDouble(r)) > Math.abs(bias.getDouble(unit))) {
                    unit = r;
                }
            }
            double pivot = bias.getDouble(unit);
            if (pivot == 0) {
                throw new IllegalArgumentException("every first-layer bias gradient is zero (the example's loss gradient"
                        + " vanished), so the input cannot be read from the first layer");
            }
            x = weights.getColumn(unit).dup().divi(pivot).toDoubleVector();
            method = "x = dW1[:, r] / db1[r], r = " + unit;
        }
        int label = recoverableLabel(target, gradient);
        double seconds = (System.nanoTime() - begin) / 1e9;

        CaseScorer scorer = new CaseScorer(attackCase);
        CaseScorer.Scored scored = scorer.score(new double[][] {x}, new int[] {label});
        double loss = matchingLoss(attackCase, target, gradient, x, label);
        return new AttackResult(name(), method, attackCase.provenance(),
                scored.images(), scored.mse(), scored.psnr(), scored.ssim(), scored.labelAccuracy(), loss,
                scorer.noiseLevel(), List.of(), new Timing(seconds, 0, 0), StopReason.CLOSED_FORM,
                attackCase.truth().shape(), scorer.originals(), scored.pixels());
    }

    @Override
    public Optional<String> limitation(TargetNetwork network, int batchSize) {
        if (batchSize != 1) {
            return Optional.of("the analytic inversion recovers a single example, and with " + batchSize + " examples"
                    + " in the batch the first-layer gradient mixes them; use DLG for batches");
        }
        if (!(network.stages().get(0) instanceof DenseStage first)) {
            return Optional.of("the analytic inversion reads the input from a dense first layer with a bias, and this"
                    + " network starts with a convolution; use DLG or iDLG");
        }
        if (!first.hasBias()) {
            return Optional.of("the analytic inversion reads the input from a dense first layer with a bias, and this"
                    + " network's first layer has no bias; use DLG or iDLG");
        }
        return Optional.empty();
    }

    /** The iDLG label, or -1 (reported as "no label") where the network's structure does not reveal it. */
    private static int recoverableLabel(TargetNetwork target, List<LayerGradient> gradient) {
        try {
            return LabelRecovery.recover(target, gradient);
        } catch (IllegalArgumentException e) {
            LOG.info("no label recovered: {}", e.getMessage());
            return -1;
        }
    }

    /** The matching loss at the reconstruction with its recovered label, when the scale is known (else NaN). */
    private static double matchingLoss(AttackCase attackCase, TargetNetwork target, List<LayerGradient> gradient,
                                       double[] x, int label) {
        if (label < 0 || !attackCase.scale().knownToAttacker() || !target.isDenseOnly()) {
            return Double.NaN;
        }
        MatchingProblem problem = new MatchingProblem(target, gradient, 1,
                LabelTreatment.fixed(LabelRows.of(new int[] {label}, target.outputSize(), DataType.DOUBLE)), false,
                MatchingAttacks.secondPoint(attackCase));
        return MatchingEngine.CLOSED_FORM.create(problem, DataType.DOUBLE).evaluate(x, new double[x.length]);
    }
}
