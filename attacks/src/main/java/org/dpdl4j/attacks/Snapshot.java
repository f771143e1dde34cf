package org.dpdl4j.attacks;

/**
 * The reconstruction after some outer optimiser steps.
 *
 * @param iteration    outer steps done (0 = the random start)
 * @param evaluations  objective evaluations spent so far
 * @param matchingLoss matching loss at the snapshot point
 * @param mse          mean MSE over the batch, after pairing dummies with examples
 * @param psnr         mean PSNR over the batch
 * @param ssim         mean SSIM over the batch
 * @param pixels       the reconstructed images in [0, 1], in the order of the attacked examples
 */
public record Snapshot(int iteration, long evaluations, double matchingLoss, double mse, double psnr, double ssim,
                       double[][] pixels) {
}
