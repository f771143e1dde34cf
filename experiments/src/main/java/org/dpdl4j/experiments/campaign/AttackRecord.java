package org.dpdl4j.experiments.campaign;

import java.util.Objects;

/**
 * One attack on one attacked image of a campaign: where the release came from, how noisy it was, and how well the
 * attack did.
 *
 * @param key            protocol, observer, epsilon and attack
 * @param target         training-set index of the image
 * @param party          the node, machine or client that held it
 * @param round          round (step) of the release
 * @param modelAccuracy  test accuracy of the model the gradient was taken at
 * @param noiseStd       per-coordinate noise std of the observation in gradient units
 * @param noiseRatio     {@code noiseStd} over the RMS of the noise-free (clipped) gradient
 * @param psnr           PSNR of the reconstruction in dB (NaN when the attack produced none)
 * @param ssim           SSIM of the reconstruction (NaN when the attack produced none)
 * @param trueLabel      the image's label
 * @param recoveredLabel the label the attack read, -1 for none
 * @param seconds        time the attack took
 * @param pixels         the reconstruction in [0, 1] (null when the attack produced none)
 */
public record AttackRecord(RowKey key, int target, int party, long round, double modelAccuracy, double noiseStd,
                           double noiseRatio, double psnr, double ssim, int trueLabel, int recoveredLabel,
                           double seconds, double[] pixels) {

    public AttackRecord {
        Objects.requireNonNull(key, "key must not be null");
    }

    /** Whether the attack read the right label. */
    public boolean labelCorrect() {
        return recoveredLabel == trueLabel;
    }

    /** PSNR of at least 30 dB: the image is recovered (spec 8.3). */
    public boolean recovered() {
        return psnr >= CampaignThresholds.RECOVERED_PSNR;
    }
}
