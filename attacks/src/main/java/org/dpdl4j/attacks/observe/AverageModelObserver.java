package org.dpdl4j.attacks.observe;

import java.util.Map;
import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.ObservationScale;
import org.dpdl4j.protocol.decentralized.DecentralizedConfig;
import org.dpdl4j.protocol.decentralized.RoundTap;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * An observer of the average model of a gossip run (the CDP view, spec table 8.5). Gossip with a doubly
 * stochastic matrix preserves the average, so {@code xbar^(t+1)} is the average of the half-steps and
 * {@code ((1 - eta lambda) xbar^t - xbar^(t+1)) / eta} is the mean of the n released gradients. The pairwise terms
 * cancel in it; the private terms leave {@code sigma_cdp / sqrt(n)} per coordinate. Knowing the other nodes'
 * contributions (the worst case), the observer removes them and keeps {@code (g_i + mean noise) / n}.
 */
public final class AverageModelObserver implements AttackObserver<AverageModelView> {
    private final DecentralizedConfig config;

    /** The observer of a run with the given settings. */
    public AverageModelObserver(DecentralizedConfig config) {
        this.config = Objects.requireNonNull(config, "config must not be null");
        GossipReleases.requireSupported(config);
    }

    @Override
    public AttackSurface surface() {
        return new AttackSurface(config.algorithm().cliName(), "average model",
                "the average model xbar^t of every round",
                "(xbar^t - xbar^(t+1)) / eta - (known others' gradients) / n = (g_i + n * mean noise) / n",
                "sees only the average model; knows every other node's data and sampling (worst case)");
    }

    @Override
    public AttackCase observe(AverageModelView view, CaseContext context) {
        GossipRound round = view.round();
        RoundTap tap = round.tap();
        int n = (int) tap.before().size(0);
        INDArray averageBefore = tap.before().mean(0).reshape(1, tap.before().size(1));
        INDArray averageAfter = tap.halfStep().mean(0).reshape(1, tap.halfStep().size(1));
        INDArray meanReleased = averageBefore.muli(1.0 - tap.eta() * tap.weightDecay()).subi(averageAfter)
                .divi(tap.eta());
        INDArray observed = meanReleased.subi(view.othersReleased().reshape(1, meanReleased.length())
                .castTo(meanReleased.dataType()).div(n));
        MultiLayerNetwork model = round.nodeModel();
        ObservationScale node = GossipReleases.scale(config, model, context.truth());
        ObservationScale scale = new ObservationScale(node.factor() / n, node.knownToAttacker());
        double noise = GossipReleases.privateStd(config) / Math.sqrt(n);
        return GossipReleases.caseOf(round, config, "average model", observed, model, scale, noise, context,
                Map.of("nodes", Integer.toString(n), "others", "known (worst case)"));
    }
}
