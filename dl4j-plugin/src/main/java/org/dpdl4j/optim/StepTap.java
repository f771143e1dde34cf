package org.dpdl4j.optim;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What one DP-SGD step releases, as a receiver of the noisy gradient (a parameter server, an eavesdropper on
 * the update) observes it: the model the gradient was taken at and {@code (sum_i clip_C(g_i) + N(0, (zC)^2 I)) / B}
 * with B the data-independent divisor, before the updater turns it into a parameter step.
 * The arrays are live views, valid only during {@link StepObserver#onStep}: copy what you keep.
 *
 * @param iteration        the network's iteration count at the step (0 for the first)
 * @param parameters       the parameters the gradient was computed at ([1, p])
 * @param releasedGradient the noisy clipped gradient divided by the divisor ([1, p])
 * @param noiseStd         per-coordinate std of the noise in {@code releasedGradient}: {@code z C / B}
 * @param batchRows        examples in this step's batch (random under Poisson sampling)
 * @param clipNorm         the per-example clip C ({@code +Infinity} when not clipping)
 * @param divisor          B, the expected batch size the noisy sum was divided by
 */
public record StepTap(long iteration, INDArray parameters, INDArray releasedGradient, double noiseStd, int batchRows,
                      double clipNorm, double divisor) {
}
