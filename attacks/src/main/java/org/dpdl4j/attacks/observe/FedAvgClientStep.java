package org.dpdl4j.attacks.observe;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.network.NetworkGradients;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A stand-in for one FedAvg client in one round, for attack experiments until a FedAvg protocol runs them: one
 * local SGD step on the client's batch, {@code theta_k = theta - eta * mean gradient}, optionally plus Gaussian
 * noise on the update (local DP without clipping, for noise sweeps).
 */
public final class FedAvgClientStep {
    private FedAvgClientStep() {
    }

    /**
     * The client's upload after one local step.
     *
     * @param global   the broadcast model (not modified)
     * @param features the client's batch, one row per example
     * @param labels   its label rows (one-hot, or a 0/1 column for a sigmoid output)
     * @param noiseStd std of the noise added to the update, 0 for plain FedAvg
     * @param seed     seed of that noise
     */
    public static FedAvgUpload upload(MultiLayerNetwork global, INDArray features, INDArray labels, double learningRate,
                                      double noiseStd, long seed) {
        int batch = (int) features.size(0);
        INDArray meanGradient = NetworkGradients.sumOverBatch(global, features, labels).divi(batch);
        INDArray theta = global.params().dup().reshape(1, global.numParams());
        INDArray client = theta.subi(meanGradient.muli(learningRate))
                .addi(SeededGaussianNoise.row(global.numParams(), noiseStd, seed, theta.dataType()));
        return new FedAvgUpload(global, client, learningRate, 1, batch, noiseStd);
    }
}
