package org.dpdl4j.attacks.observe;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.ReleaseOrigin;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * An adversary of a decentralized run (D-SGD, Decor, LDP): an eavesdropper who sees a node's models
 * {@code x_i^t} and half-step {@code x_i^{t+1/2}} and computes its released gradient
 * {@code ((1 - eta lambda) x_i^t - x_i^{t+1/2}) / eta}, or a neighbour who also removes the pairwise noise it
 * shares with the node (spec table 8.5). The model at the release is the node's {@code x_i^t}.
 */
public final class DecentralizedObserver implements AttackObserver<NodeRelease> {
    private static final AttackSurface SURFACE = new AttackSurface("decentralized", "eavesdropper or neighbour",
            "a node's model x_i^t and its broadcast half-step x_i^(t+1/2); a neighbour also knows their pairwise term",
            "((1 - eta lambda) x_i^t - x_i^(t+1/2)) / eta = the node's (clipped) gradient + its noise"
                    + " (minus the neighbour's pairwise term)",
            "follows the messages of the run from the start (so it knows x_i^t), the learning rate and the decay");

    @Override
    public AttackSurface surface() {
        return SURFACE;
    }

    @Override
    public AttackCase observe(NodeRelease release, CaseContext context) {
        var tap = release.tap();
        INDArray released = release.neighbour() < 0 ? tap.releasedGradient(release.node())
                : tap.releasedGradientSeenByNeighbour(release.node(), release.neighbour());
        MultiLayerNetwork model = release.template().clone();
        model.setParams(tap.before().getRow(release.node()).dup().reshape(1, model.numParams())
                .castTo(model.params().dataType()));
        ReleaseOrigin provenance = new ReleaseOrigin("decentralized",
                release.neighbour() < 0 ? "eavesdropper" : "neighbour " + release.neighbour(), tap.round(),
                context.modelAccuracy(), context.details())
                .with("node", Integer.toString(release.node()))
                .with("learning_rate", Double.toString(tap.eta()))
                .with("weight_decay", Double.toString(tap.weightDecay()));
        return new AttackCase(model, released.dup().castTo(model.params().dataType()), release.scale(),
                release.noiseStd(), release.batchSize(), context.truth(), provenance);
    }
}
