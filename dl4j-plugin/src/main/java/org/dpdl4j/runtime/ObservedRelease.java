package org.dpdl4j.runtime;

import java.util.Arrays;
import java.util.Objects;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * One release as a declared observer sees it, in the form every gradient-inversion attack takes: the model the
 * release was computed at and a vector that is, up to its noise, {@code scale} times the gradient of the mean loss
 * over the released examples. A run fills it in from its own state, so a protocol nobody wrote an attack adapter
 * for can still be attacked; the run knows which training rows are behind it, which is the attack's ground truth
 * (the adversary is never told them).
 *
 * @param step       the step (round, hop) of the release, counted from 0
 * @param parameters the model parameters at the release, laid out like {@code MultiLayerNetwork.params()}
 * @param released   the released vector, same length and layout as {@code parameters}
 * @param scale      the released vector over the clipped gradient of the batch-mean loss, before noise: the
 *                   release is {@code scale * clip_C(g) + noise} (for example the learning rate for a model
 *                   difference {@code theta - theta+}, 1 for a gradient); positive
 * @param rows       indices into {@code RunInputs.train()} of the examples behind the release
 * @param noiseStd   the std of the Gaussian noise on each coordinate of {@code released}, 0 for none
 * @param clipNorm   the norm C the gradient {@code g} is clipped to before scaling, {@code +Infinity} when nothing
 *                   is clipped; the clip factor {@code min(1, C / ||g||)} is unknown to the observer
 */
public record ObservedRelease(long step, INDArray parameters, INDArray released, double scale, int[] rows,
                              double noiseStd, double clipNorm) {

    public ObservedRelease {
        Objects.requireNonNull(parameters, "the parameters at the release must not be null");
        Objects.requireNonNull(released, "the released vector must not be null");
        Objects.requireNonNull(rows, "the rows behind the release must not be null");
        if (step < 0) {
            throw new IllegalArgumentException("a release's step counts from 0, got " + step);
        }
        if (released.length() != parameters.length()) {
            throw new IllegalArgumentException("the released vector has " + released.length() + " entries but the model "
                    + parameters.length() + "; release a vector laid out like the parameters");
        }
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("the scale of a release must be positive and finite, got " + scale
                    + "; release a descent step as theta - theta+ (scale: the learning rate), not its negative");
        }
        if (rows.length == 0) {
            throw new IllegalArgumentException("a release needs the rows of the examples behind it; got none");
        }
        for (int r : rows) {
            if (r < 0) {
                throw new IllegalArgumentException("row " + r + " is not an index into the training set");
            }
        }
        if (!(noiseStd >= 0) || Double.isInfinite(noiseStd)) {
            throw new IllegalArgumentException("the noise std of a release must be finite and at least 0, got " + noiseStd);
        }
        if (!(clipNorm > 0)) {
            throw new IllegalArgumentException("the clip norm of a release must be positive (+Infinity when nothing is"
                    + " clipped), got " + clipNorm);
        }
        rows = rows.clone();
    }

    @Override
    public int[] rows() {
        return rows.clone();
    }

    /** Whether the release was clipped, so that its true scale is unknown to the observer. */
    public boolean isClipped() {
        return !Double.isInfinite(clipNorm);
    }

    @Override
    public String toString() {
        return "ObservedRelease[step=" + step + ", rows=" + Arrays.toString(rows) + ", scale=" + scale + ", noiseStd="
                + noiseStd + ", clipNorm=" + clipNorm + "]";
    }
}
