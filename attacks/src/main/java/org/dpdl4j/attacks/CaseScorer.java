package org.dpdl4j.attacks;

import java.util.ArrayList;
import java.util.List;
import org.dpdl4j.attacks.metrics.Assignment;
import org.dpdl4j.attacks.metrics.ImageMetrics;
import org.dpdl4j.attacks.metrics.Ssim;
import org.dpdl4j.attacks.network.NetworkGradients;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Scores reconstructions against a case's ground truth: maps them to pixels in [0, 1] (de-normalise, clamp),
 * pairs dummies with examples by minimum total MSE (the order of a batch is not observable), then computes MSE,
 * PSNR, SSIM and label agreement per example.
 */
public final class CaseScorer {
    private final AttackCase attackCase;
    private final double[][] originals;
    private final Ssim ssim = Ssim.standard();

    /** A scorer for the case. */
    public CaseScorer(AttackCase attackCase) {
        this.attackCase = attackCase;
        GroundTruth truth = attackCase.truth();
        this.originals = new double[truth.size()][];
        for (int i = 0; i < truth.size(); i++) {
            originals[i] = truth.pixels(i);
        }
    }

    /** The attacked examples as pixels. */
    public double[][] originals() {
        return originals.clone();
    }

    /** Reconstructions in pixel space, paired with the examples, and their scores. */
    public record Scored(double[][] pixels, List<ImageOutcome> images, double mse, double psnr, double ssim,
                         double labelAccuracy) {
    }

    /**
     * Scores dummy inputs (model input space, one row per dummy).
     *
     * @param dummies        {@code B} rows of model inputs
     * @param recoveredLabels label of each dummy, -1 where the attack recovers none
     */
    public Scored score(double[][] dummies, int[] recoveredLabels) {
        int n = originals.length;
        if (dummies.length != n || recoveredLabels.length != n) {
            throw new IllegalArgumentException("expected " + n + " reconstructions and labels, got " + dummies.length
                    + " and " + recoveredLabels.length);
        }
        InputNormalization normalization = attackCase.truth().normalization();
        double[][] pixels = new double[n][];
        for (int d = 0; d < n; d++) {
            pixels[d] = normalization.toPixels(dummies[d]);
        }
        int[] dummyOfExample = new int[] {0};
        if (n > 1) {
            double[][] cost = new double[n][n];
            for (int e = 0; e < n; e++) {
                for (int d = 0; d < n; d++) {
                    double mse = ImageMetrics.mse(pixels[d], originals[e]);
                    cost[e][d] = Double.isFinite(mse) ? mse : Double.MAX_VALUE / (4.0 * n);
                }
            }
            dummyOfExample = Assignment.minimumCost(cost);
        }
        int[] labels = attackCase.truth().labels();
        List<ImageOutcome> outcomes = new ArrayList<>(n);
        double[][] paired = new double[n][];
        double mseSum = 0;
        double psnrSum = 0;
        double ssimSum = 0;
        int correct = 0;
        for (int e = 0; e < n; e++) {
            int d = dummyOfExample[e];
            paired[e] = pixels[d];
            double mse = ImageMetrics.mse(pixels[d], originals[e]);
            double psnr = Double.isNaN(mse) ? Double.NaN : ImageMetrics.psnr(mse);
            double s = ssim.compute(pixels[d], originals[e], attackCase.truth().shape());
            boolean labelCorrect = recoveredLabels[d] == labels[e];
            correct += labelCorrect ? 1 : 0;
            outcomes.add(new ImageOutcome(e, d, labels[e], recoveredLabels[d], labelCorrect, mse, psnr, s));
            mseSum += mse;
            psnrSum += psnr;
            ssimSum += s;
        }
        return new Scored(paired, outcomes, mseSum / n, psnrSum / n, ssimSum / n, (double) correct / n);
    }

    /**
     * Noise of the observation relative to the noise-free gradient of the batch-mean loss on the ground truth (for a
     * {@link GradientForm.Difference}, relative to that weighted difference of gradients).
     */
    public NoiseLevel noiseLevel() {
        GroundTruth truth = attackCase.truth();
        long outputs = attackCase.model().getOutputLayer().getParam("W").size(1);
        INDArray labels = LabelRows.of(truth.labels(), outputs, attackCase.model().params().dataType());
        INDArray gradient = NetworkGradients.sumOverBatch(attackCase.model(), truth.inputs(), labels)
                .castTo(DataType.DOUBLE).divi(truth.size());
        if (attackCase.form() instanceof GradientForm.Difference d) {
            INDArray previous = NetworkGradients.sumOverBatch(attackCase.previousModel(), truth.inputs(), labels)
                    .castTo(DataType.DOUBLE).divi(truth.size());
            gradient.muli(d.currentWeight()).subi(previous.muli(d.previousWeight()));
        }
        double rms = gradient.norm2Number().doubleValue() / Math.sqrt(gradient.length());
        double gradientStd = attackCase.noiseStdInGradientUnits();
        return new NoiseLevel(attackCase.noiseStd(), gradientStd, rms, gradientStd / rms);
    }
}
