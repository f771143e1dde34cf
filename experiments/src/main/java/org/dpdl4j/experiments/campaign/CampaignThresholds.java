package org.dpdl4j.experiments.campaign;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpdl4j.attacks.metrics.ImageMetrics;
import org.dpdl4j.attacks.metrics.Ssim;
import org.dpdl4j.models.ImageShape;

/** The success threshold of a campaign and the derivation of its failure threshold. */
public final class CampaignThresholds {
    /** PSNR (dB) from which an image counts as recovered (spec 8.3). */
    public static final double RECOVERED_PSNR = 30;
    /** The fixed failure thresholds of spec 8.3 (PSNR at most 12 dB and SSIM at most 0.1), reported beside ours. */
    public static final double SPEC_FAILED_PSNR = 12;
    /** SSIM part of the fixed failure threshold of spec 8.3. */
    public static final double SPEC_FAILED_SSIM = 0.1;

    private CampaignThresholds() {
    }

    /**
     * The failure bar of every target: the best PSNR and the best SSIM that any blind guess (the mean image, or a
     * reconstruction from a pure-noise observation, whichever attack made it) reaches against that target.
     *
     * @param noiseOnly the attacks' records on pure-noise observations; those without a reconstruction, or with
     *                  non-finite pixels, are skipped
     * @param meanImage the per-pixel mean of the training images
     * @param originals the targets' pixels by training-set index
     */
    public static FailureThreshold derive(List<AttackRecord> noiseOnly, double[] meanImage,
                                          Map<Integer, double[]> originals, ImageShape shape) {
        Ssim ssim = Ssim.standard();
        // An attack that diverged on pure noise may leave no usable image (null, or non-finite pixels): no guess.
        List<double[]> guesses = noiseOnly.stream().map(AttackRecord::pixels)
                .filter(p -> p != null && java.util.Arrays.stream(p).allMatch(Double::isFinite)).toList();
        Map<Integer, FailureThreshold.Bar> bars = new LinkedHashMap<>();
        for (var e : originals.entrySet()) {
            double[] x = e.getValue();
            double meanPsnr = ImageMetrics.psnr(meanImage, x);
            double meanSsim = ssim.compute(meanImage, x, shape);
            double noisePsnr = Double.NaN;
            double noiseSsim = Double.NaN;
            for (double[] g : guesses) {
                noisePsnr = maxIgnoringNaN(noisePsnr, ImageMetrics.psnr(g, x));
                noiseSsim = maxIgnoringNaN(noiseSsim, ssim.compute(g, x, shape));
            }
            bars.put(e.getKey(), new FailureThreshold.Bar(maxIgnoringNaN(meanPsnr, noisePsnr),
                    maxIgnoringNaN(meanSsim, noiseSsim), meanPsnr, meanSsim, noisePsnr, noiseSsim));
        }
        return new FailureThreshold(bars, guesses.size() + 1);
    }

    /** Whether a record fails by the fixed thresholds of spec 8.3 (no reconstruction counts as failed). */
    public static boolean failedBySpec(AttackRecord r) {
        return Double.isNaN(r.psnr()) || Double.isNaN(r.ssim())
                || (r.psnr() <= SPEC_FAILED_PSNR && r.ssim() <= SPEC_FAILED_SSIM);
    }

    private static double maxIgnoringNaN(double a, double b) {
        if (Double.isNaN(a)) {
            return b;
        }
        return Double.isNaN(b) ? a : Math.max(a, b);
    }
}
