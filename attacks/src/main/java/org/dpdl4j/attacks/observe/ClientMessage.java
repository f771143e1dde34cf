package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What one client of a FedAvg-family run sent the server in one round, with the global model it started from.
 *
 * @param template         a network with the run's architecture (its parameters are ignored)
 * @param globalParameters the broadcast model {@code theta} of the round
 * @param message          the client's uplink: its update {@code Delta_k} (FedAvg), the noisy clipped update (DP-FedAvg
 *                         with local DP), or GOPA's revealed value
 * @param client           the client's id
 * @param round            the round
 */
public record ClientMessage(MultiLayerNetwork template, INDArray globalParameters, INDArray message, int client,
                            long round) {

    public ClientMessage {
        Objects.requireNonNull(template, "template must not be null");
        Objects.requireNonNull(globalParameters, "global parameters must not be null");
        Objects.requireNonNull(message, "message must not be null");
        if (globalParameters.length() != template.numParams() || message.length() != template.numParams()) {
            throw new IllegalArgumentException("the global model has " + globalParameters.length() + " and the message "
                    + message.length() + " entries, but the network has " + template.numParams() + " parameters");
        }
        if (round < 0) {
            throw new IllegalArgumentException("round must be >= 0, got " + round);
        }
    }

    /** The global model of the round, where the client's gradient was taken, as a fresh network. */
    MultiLayerNetwork globalModel() {
        MultiLayerNetwork model = template.clone();
        model.setParams(globalParameters.dup().reshape(1, model.numParams()).castTo(model.params().dataType()));
        return model;
    }
}
