package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * One round of a FedAvg-family run seen through the global model, with what the attacker knows of the other
 * participants.
 *
 * @param template       a network with the run's architecture
 * @param before         the global model {@code theta_t}
 * @param after          the next global model {@code theta_(t+1)}
 * @param client         the attacked client
 * @param round          the round t
 * @param weight         the attacked client's weight in the average (public: 1/K, or 1 / expected participants)
 * @param othersAverage  the other participants' share of the average, noise excluded (the worst case: an attacker who
 *                       knows their data)
 */
public record AggregateView(MultiLayerNetwork template, INDArray before, INDArray after, int client, long round,
                            double weight, INDArray othersAverage) {

    public AggregateView {
        Objects.requireNonNull(template, "template must not be null");
        Objects.requireNonNull(before, "model before the round must not be null");
        Objects.requireNonNull(after, "model after the round must not be null");
        Objects.requireNonNull(othersAverage, "others' share must not be null (zeros for a single participant)");
        long p = template.numParams();
        if (before.length() != p || after.length() != p || othersAverage.length() != p) {
            throw new IllegalArgumentException("the models and the others' share must have " + p + " entries");
        }
        if (!(weight > 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("the client's weight must be positive and finite, got " + weight);
        }
    }
}
