package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A released gradient: the model it was computed on and the vector, {@code scale * mean gradient + noise}.
 *
 * @param model     the model at the release
 * @param gradient  the released vector, laid out like {@code params()}
 * @param scale     its factor relative to the gradient of the batch-mean loss (1 for a mean, B for DL4J's sum)
 * @param batchSize examples behind it
 * @param noiseStd  std of the Gaussian noise added per coordinate, 0 if none
 */
public record GradientRelease(MultiLayerNetwork model, INDArray gradient, double scale, int batchSize,
                              double noiseStd) {

    public GradientRelease {
        Objects.requireNonNull(model, "model must not be null");
        Objects.requireNonNull(gradient, "gradient must not be null");
        if (gradient.length() != model.numParams()) {
            throw new IllegalArgumentException("gradient has " + gradient.length() + " entries but the model has "
                    + model.numParams() + " parameters");
        }
        if (scale == 0 || !Double.isFinite(scale)) {
            throw new IllegalArgumentException("scale must be a non-zero finite number, got " + scale);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be >= 1, got " + batchSize);
        }
        if (!(noiseStd >= 0) || Double.isInfinite(noiseStd)) {
            throw new IllegalArgumentException("noise std must be a finite number >= 0, got " + noiseStd);
        }
    }
}
