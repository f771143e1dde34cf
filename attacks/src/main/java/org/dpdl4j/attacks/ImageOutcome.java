package org.dpdl4j.attacks;

/**
 * The score of one attacked example.
 *
 * @param example        index of the example in the attacked batch
 * @param reconstruction index of the dummy paired with it (the pairing minimising the total MSE)
 * @param trueLabel      its label
 * @param recoveredLabel label the attack recovered, -1 if it recovers none
 * @param labelCorrect   whether the recovered label is the true one
 * @param mse            mean squared error of the pixels in [0, 1]
 * @param psnr           PSNR in dB (data range 1; +Infinity when exact)
 * @param ssim           SSIM (Gaussian window 11, sigma 1.5, valid filtering)
 */
public record ImageOutcome(int example, int reconstruction, int trueLabel, int recoveredLabel, boolean labelCorrect,
                           double mse, double psnr, double ssim) {
}
