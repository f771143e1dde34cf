package org.dpdl4j.attacks.network;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Gradients computed by DL4J's own backpropagation, the reference the attacks are checked against. */
public final class NetworkGradients {
    private NetworkGradients() {
    }

    /**
     * The loss gradient of the network at a batch, laid out like {@code net.params()}, as a fresh copy. DL4J's
     * backpropagation returns the <em>sum</em> of the per-example gradients (its updaters divide by the batch
     * size), so for a batch of {@code B} examples this is {@code B} times the gradient of the mean loss.
     * Regularisation (L2, weight decay) is not included: DL4J applies it in the updater.
     *
     * @param features {@code B x nIn}
     * @param labels   {@code B x nOut}
     */
    public static INDArray sumOverBatch(MultiLayerNetwork net, INDArray features, INDArray labels) {
        Objects.requireNonNull(net, "network must not be null");
        Objects.requireNonNull(features, "features must not be null");
        Objects.requireNonNull(labels, "labels must not be null");
        if (features.rank() != 2 || labels.rank() != 2 || features.size(0) != labels.size(0)) {
            throw new IllegalArgumentException("features and labels must be matrices with one row per example, got "
                    + java.util.Arrays.toString(features.shape()) + " and "
                    + java.util.Arrays.toString(labels.shape()));
        }
        net.setInput(features.castTo(net.params().dataType()));
        net.setLabels(labels.castTo(net.params().dataType()));
        net.computeGradientAndScore();
        INDArray gradient = net.getFlattenedGradients().dup().reshape(1, net.numParams());
        net.clear();
        return gradient;
    }
}
