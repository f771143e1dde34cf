package org.dpdl4j.experiments.campaign;

/**
 * The aggregate of one row of the campaign's table.
 *
 * @param key           protocol, observer, epsilon, attack
 * @param images        attacked images
 * @param medianPsnr    median PSNR (dB)
 * @param medianSsim    median SSIM
 * @param recovered     fraction with PSNR of at least 30 dB
 * @param failed        fraction failed by the derived {@link FailureThreshold}
 * @param failedBySpec  fraction failed by the fixed thresholds of spec 8.3 (PSNR <= 12 dB and SSIM <= 0.1)
 * @param labelAccuracy fraction of labels read correctly
 * @param modelAccuracy median test accuracy of the models the releases came from
 * @param noiseRatio    median noise std relative to the RMS of the noise-free gradient
 * @param rounds        the attacked rounds, e.g. {@code 50-51}
 */
public record RowSummary(RowKey key, int images, double medianPsnr, double medianSsim, double recovered, double failed,
                         double failedBySpec, double labelAccuracy, double modelAccuracy, double noiseRatio,
                         String rounds) {
}
