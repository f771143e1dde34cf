package org.dpdl4j.attacks.observe;

import java.util.Map;
import java.util.TreeMap;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.ObservationScale;
import org.dpdl4j.attacks.ReleaseOrigin;
import org.dpdl4j.protocol.federated.FedAvgConfig;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What FedAvg's ClientUpdate with one local SGD step puts into a client's update: {@code Delta = -eta c g} with
 * {@code c = min(1, S / (eta ||g||))} when the private variants clip it to S. Shared by the FedAvg-family observers.
 */
final class FederatedReleases {
    private FederatedReleases() {
    }

    /** Refuses runs whose update is not one gradient step on one example. */
    static void requireOneStep(FedAvgConfig config, CaseContext context) {
        if (config.localSteps() != 1) {
            throw new IllegalArgumentException("a client update is one gradient only for L = 1 local step; the run takes "
                    + config.localSteps() + " steps, whose update is not one gradient");
        }
        if (context.truth().size() != 1) {
            throw new IllegalArgumentException("the observers of clipped updates attack one example; the ground truth"
                    + " holds " + context.truth().size());
        }
    }

    /** The factor between the (clipped) update and the gradient of the client's example: {@code -eta c}. */
    static double updateFactor(FedAvgConfig config, MultiLayerNetwork model, CaseContext context, long round) {
        double eta = config.localRate().at(round);
        double c = config.variant().isPrivate()
                ? ClipFactor.of(model, context.truth(), config.clipNorm() / eta, false) : 1.0;
        return -eta * c;
    }

    /** The case: the scale is public for plain FedAvg, unknown (clip factor) for the private variants. */
    static AttackCase caseOf(FedAvgConfig config, String observer, MultiLayerNetwork model, INDArray observed,
                             double factor, double noiseStd, long round, int client, CaseContext context,
                             Map<String, String> extra) {
        Map<String, String> details = new TreeMap<>(context.details());
        details.putAll(extra);
        details.put("client", Integer.toString(client));
        details.put("learning_rate", Double.toString(config.localRate().at(round)));
        details.put("update_clip", Double.toString(config.clipNorm()));
        ReleaseOrigin provenance = new ReleaseOrigin(config.variant().cliName(), observer, round, context.modelAccuracy(),
                details);
        AttackCase known = new AttackCase(model, observed.dup().reshape(1, model.numParams())
                .castTo(model.params().dataType()), ObservationScale.known(factor), noiseStd, 1, context.truth(),
                provenance);
        return config.variant().isPrivate() ? known.withUnknownScale() : known;
    }
}
