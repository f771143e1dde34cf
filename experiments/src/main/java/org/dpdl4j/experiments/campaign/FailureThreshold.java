package org.dpdl4j.experiments.campaign;

import java.util.Map;
import java.util.Objects;

/**
 * When a reconstruction counts as failed, derived per target image from guesses made without any information about
 * it: the mean training image, and every reconstruction the campaign's attacks produced from pure-noise observations
 * (releases holding only the protocol's noise, at its scale). A reconstruction of image i fails when it is no closer
 * to image i than the best of these blind guesses is, on PSNR and on SSIM alike.
 *
 * @param bars       the bar of each target, by training-set index
 * @param blindGuesses number of blind guesses behind every bar (noise-only reconstructions + the mean image)
 */
public record FailureThreshold(Map<Integer, Bar> bars, int blindGuesses) {

    /**
     * The bar of one target image.
     *
     * @param psnr          PSNR (dB) at or below which a reconstruction may count as failed: the larger of the next two
     * @param ssim          SSIM at or below which a reconstruction may count as failed
     * @param meanImagePsnr PSNR of the mean training image against the target
     * @param meanImageSsim SSIM of the mean training image against the target
     * @param noiseOnlyPsnr best PSNR of a noise-only reconstruction against the target (NaN without any)
     * @param noiseOnlySsim best SSIM of a noise-only reconstruction against the target (NaN without any)
     */
    public record Bar(double psnr, double ssim, double meanImagePsnr, double meanImageSsim, double noiseOnlyPsnr,
                      double noiseOnlySsim) {
    }

    public FailureThreshold {
        // sorted by target, so reports list the bars in the same order on every run (Map.copyOf does not)
        bars = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(Objects.requireNonNull(bars, "bars must not be null")));
    }

    /**
     * Whether a reconstruction is no better than the blind guesses on its target (or the attack produced none).
     *
     * @throws IllegalArgumentException for a record whose target has no bar
     */
    public boolean failed(AttackRecord record) {
        Bar bar = bars.get(record.target());
        if (bar == null) {
            throw new IllegalArgumentException("no failure bar for target image " + record.target() + "; bars exist for "
                    + bars.keySet());
        }
        if (Double.isNaN(record.psnr()) || Double.isNaN(record.ssim())) {
            return true;
        }
        return record.psnr() <= bar.psnr() && record.ssim() <= bar.ssim();
    }
}
