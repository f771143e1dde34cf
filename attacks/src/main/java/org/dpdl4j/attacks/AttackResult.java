package org.dpdl4j.attacks;

import java.util.List;
import java.util.Objects;
import org.dpdl4j.models.ImageShape;

/**
 * The outcome of one attack on one case: scores per example and on average, the optimisation trace as
 * snapshots, the cost, and the case's provenance.
 *
 * @param attack            attack name, e.g. {@code dlg}
 * @param method            how it ran (objective engine and precision, optimiser)
 * @param provenance        where the observation came from
 * @param images            per-example scores
 * @param mse               mean MSE over the batch
 * @param psnr              mean PSNR over the batch (+Infinity if every example is exact)
 * @param ssim              mean SSIM over the batch
 * @param labelAccuracy     fraction of examples whose label was recovered
 * @param finalMatchingLoss matching loss at the reported reconstruction (NaN when not evaluated)
 * @param noise             noise level of the observation
 * @param snapshots         reconstructions during the optimisation (empty for closed-form attacks)
 * @param timing            cost
 * @param stopReason        why the attack ended
 * @param shape             image shape
 * @param originals         the attacked examples as pixels in [0, 1]
 * @param reconstruction    the reported reconstructions as pixels, in the order of {@code originals}
 */
public record AttackResult(String attack, String method, ReleaseOrigin provenance, List<ImageOutcome> images,
                           double mse, double psnr, double ssim, double labelAccuracy, double finalMatchingLoss,
                           NoiseLevel noise, List<Snapshot> snapshots, Timing timing, StopReason stopReason,
                           ImageShape shape, double[][] originals, double[][] reconstruction) {

    public AttackResult {
        Objects.requireNonNull(attack, "attack must not be null");
        Objects.requireNonNull(provenance, "provenance must not be null");
        images = List.copyOf(images);
        snapshots = List.copyOf(snapshots);
    }

    /** The same result under another attack name and method description (a wrapper naming what ran). */
    public AttackResult withMethod(String attackName, String methodDescription) {
        return new AttackResult(attackName, methodDescription, provenance, images, mse, psnr, ssim, labelAccuracy,
                finalMatchingLoss, noise, snapshots, timing, stopReason, shape, originals, reconstruction);
    }

    /** The same result with another timing (a wrapper counting the work of every run it made). */
    public AttackResult withTiming(Timing total) {
        return new AttackResult(attack, method, provenance, images, mse, psnr, ssim, labelAccuracy, finalMatchingLoss,
                noise, snapshots, total, stopReason, shape, originals, reconstruction);
    }

    /** Whether every label was recovered. */
    public boolean allLabelsCorrect() {
        return images.stream().allMatch(ImageOutcome::labelCorrect);
    }
}
