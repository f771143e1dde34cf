package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What the FedAvg server sees of one client in one round: the global model it sent and the model the client
 * returned, with the public settings of the local update.
 *
 * @param globalModel      the model {@code theta} broadcast at the start of the round
 * @param clientParameters the client's returned parameters {@code theta_k}, laid out like {@code params()}
 * @param learningRate     the client's SGD learning rate {@code eta}
 * @param localSteps       local SGD steps {@code L}
 * @param batchSize        examples per local step
 * @param noiseStd         std of Gaussian noise the client adds to its update (local DP), 0 for plain FedAvg
 */
public record FedAvgUpload(MultiLayerNetwork globalModel, INDArray clientParameters, double learningRate,
                           int localSteps, int batchSize, double noiseStd) {

    public FedAvgUpload {
        Objects.requireNonNull(globalModel, "global model must not be null");
        Objects.requireNonNull(clientParameters, "client parameters must not be null");
        if (clientParameters.length() != globalModel.numParams()) {
            throw new IllegalArgumentException("client parameters have " + clientParameters.length()
                    + " entries but the global model has " + globalModel.numParams());
        }
        if (!(learningRate > 0) || Double.isInfinite(learningRate)) {
            throw new IllegalArgumentException("learning rate must be a positive finite number, got " + learningRate);
        }
        if (localSteps < 1 || batchSize < 1) {
            throw new IllegalArgumentException("local steps and batch size must be >= 1, got " + localSteps + " and "
                    + batchSize);
        }
        if (!(noiseStd >= 0) || Double.isInfinite(noiseStd)) {
            throw new IllegalArgumentException("noise std must be a finite number >= 0, got " + noiseStd);
        }
    }
}
