package org.dpdl4j.attacks.observe;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.network.NetworkGradients;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Releases the gradient of the batch-mean loss computed with DL4J's own backpropagation on a model at a given
 * training state, optionally plus Gaussian noise: the non-private and noisy-gradient baselines.
 */
public final class CentralGradientRelease {
    private CentralGradientRelease() {
    }

    /**
     * @param model    the model at the release (not modified)
     * @param features the batch, one row per example
     * @param labels   its label rows
     * @param noiseStd std of the Gaussian noise added per coordinate, 0 for none
     * @param seed     seed of that noise
     */
    public static GradientRelease release(MultiLayerNetwork model, INDArray features, INDArray labels, double noiseStd,
                                          long seed) {
        int batch = (int) features.size(0);
        INDArray mean = NetworkGradients.sumOverBatch(model, features, labels).divi(batch);
        mean.addi(SeededGaussianNoise.row(model.numParams(), noiseStd, seed, mean.dataType()));
        return new GradientRelease(model, mean, 1.0, batch, noiseStd);
    }
}
