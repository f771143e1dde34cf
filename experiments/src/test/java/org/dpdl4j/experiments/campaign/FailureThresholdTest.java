package org.dpdl4j.experiments.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpdl4j.attacks.metrics.ImageMetrics;
import org.dpdl4j.attacks.metrics.Ssim;
import org.dpdl4j.models.ImageShape;
import org.junit.jupiter.api.Test;

/** The per-image failure bars derived from blind guesses, and the failed / recovered decisions made with them. */
class FailureThresholdTest {
    private static final RowKey KEY = new RowKey("decor", "eavesdropper", 8, "analytic-ls");
    private static final ImageShape SHAPE = new ImageShape(1, 12, 12);

    static AttackRecord record(RowKey key, int target, double psnr, double ssim, int label, int recoveredLabel) {
        return recordWithPixels(key, target, psnr, ssim, label, recoveredLabel, Double.isNaN(psnr) ? null
                : new double[4]);
    }

    static AttackRecord recordWithPixels(RowKey key, int target, double psnr, double ssim, int label,
                                         int recoveredLabel, double[] pixels) {
        return new AttackRecord(key, target, 0, 50, 0.5, 1.0, 100.0, psnr, ssim, label, recoveredLabel, 0.1, pixels);
    }

    private static double[] image(long seed, double scale) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        double[] x = new double[SHAPE.flatSize()];
        for (int i = 0; i < x.length; i++) {
            x[i] = Math.min(1, Math.max(0, scale * r.nextDouble()));
        }
        return x;
    }

    /** What a diverged attack might leave: an image with a non-finite pixel. */
    private static double[] diverged() {
        double[] x = image(6, 1);
        x[3] = Double.NaN;
        return x;
    }

    @Test
    void eachTargetsBarIsTheBestScoreOfAnyBlindGuessOnThatTarget() {
        double[] mean = image(1, 0.5);
        double[] a = image(2, 1);
        double[] b = image(3, 0.2);
        Map<Integer, double[]> originals = new LinkedHashMap<>();
        originals.put(7, a);
        originals.put(9, b);
        double[] g1 = image(4, 1);
        double[] g2 = image(5, 0.3);
        List<AttackRecord> noise = List.of(recordWithPixels(KEY, 7, 1, 0, 0, 0, g1),
                recordWithPixels(KEY.withAttack("idlg"), 9, 1, 0, 0, 0, g2),
                record(KEY, 9, Double.NaN, Double.NaN, 0, -1), recordWithPixels(KEY.withAttack("ig"), 7, 1, 0, 0, 0, diverged()));
        FailureThreshold t = CampaignThresholds.derive(noise, mean, originals, SHAPE);
        assertEquals(3, t.blindGuesses(), "two noise-only reconstructions and the mean image; none without a usable image");
        Ssim ssim = Ssim.standard();
        for (var e : originals.entrySet()) {
            double[] x = e.getValue();
            FailureThreshold.Bar bar = t.bars().get(e.getKey());
            assertEquals(ImageMetrics.psnr(mean, x), bar.meanImagePsnr(), 1e-12);
            assertEquals(ssim.compute(mean, x, SHAPE), bar.meanImageSsim(), 1e-12);
            assertEquals(Math.max(ImageMetrics.psnr(g1, x), ImageMetrics.psnr(g2, x)), bar.noiseOnlyPsnr(), 1e-12,
                    "every blind guess is scored against every target, whatever its own case was");
            assertEquals(Math.max(ssim.compute(g1, x, SHAPE), ssim.compute(g2, x, SHAPE)), bar.noiseOnlySsim(), 1e-12);
            assertEquals(Math.max(bar.meanImagePsnr(), bar.noiseOnlyPsnr()), bar.psnr(), 1e-12);
            assertEquals(Math.max(bar.meanImageSsim(), bar.noiseOnlySsim()), bar.ssim(), 1e-12);
        }
        assertTrue(t.bars().get(9).psnr() > t.bars().get(7).psnr(), "the dark image is easier to guess blindly");
    }

    @Test
    void withoutNoiseOnlyRunsTheMeanImageAloneSetsTheBar() {
        double[] mean = image(1, 0.5);
        double[] a = image(2, 1);
        FailureThreshold t = CampaignThresholds.derive(List.of(), mean, Map.of(0, a), SHAPE);
        FailureThreshold.Bar bar = t.bars().get(0);
        assertTrue(Double.isNaN(bar.noiseOnlyPsnr()));
        assertEquals(ImageMetrics.psnr(mean, a), bar.psnr(), 1e-12);
        assertEquals(1, t.blindGuesses());
    }

    @Test
    void aReconstructionFailsOnlyWhenNeitherMetricBeatsItsTargetsBar() {
        FailureThreshold t = new FailureThreshold(Map.of(0, new FailureThreshold.Bar(12, 0.3, 12, 0.3, 9, 0.01),
                1, new FailureThreshold.Bar(20, 0.5, 20, 0.5, 9, 0.01)), 5);
        assertTrue(t.failed(record(KEY, 0, 11.9, 0.29, 1, 1)), "below on both");
        assertTrue(t.failed(record(KEY, 0, 12, 0.3, 1, 1)), "at the bar counts as blind");
        assertFalse(t.failed(record(KEY, 0, 12.1, 0.0, 1, 1)), "PSNR above the bar");
        assertFalse(t.failed(record(KEY, 0, 5, 0.31, 1, 1)), "SSIM above the bar");
        assertTrue(t.failed(record(KEY, 1, 15, 0.4, 1, 1)), "the same scores fail on an image blind guesses match");
        assertTrue(t.failed(record(KEY, 0, Double.NaN, Double.NaN, 1, -1)), "no reconstruction");
        assertFalse(t.failed(record(KEY, 0, Double.POSITIVE_INFINITY, 1, 1, 1)), "exact");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> t.failed(record(KEY, 3, 10, 0.1, 1, 1)));
        assertTrue(e.getMessage().contains("target image 3"), e.getMessage());
    }

    @Test
    void recoveredMeansAtLeast30DecibelsAndTheSpecThresholdsAreFixed() {
        assertTrue(record(KEY, 0, 30, 0.9, 1, 1).recovered());
        assertFalse(record(KEY, 0, 29.99, 0.9, 1, 1).recovered());
        assertFalse(record(KEY, 0, Double.NaN, Double.NaN, 1, -1).recovered());
        assertTrue(record(KEY, 0, 30, 0.9, 3, 3).labelCorrect());
        assertFalse(record(KEY, 0, 30, 0.9, 3, -1).labelCorrect());
        assertTrue(CampaignThresholds.failedBySpec(record(KEY, 0, 12, 0.1, 1, 1)));
        assertFalse(CampaignThresholds.failedBySpec(record(KEY, 0, 12.01, 0.1, 1, 1)));
        assertFalse(CampaignThresholds.failedBySpec(record(KEY, 0, 5, 0.11, 1, 1)));
        assertTrue(CampaignThresholds.failedBySpec(record(KEY, 0, Double.NaN, Double.NaN, 1, -1)));
    }
}
