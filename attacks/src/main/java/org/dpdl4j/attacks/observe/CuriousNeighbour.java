package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.protocol.decentralized.DecentralizedConfig;

/**
 * A curious neighbour {@code j} of the attacked node {@code i} in a gossip run (spec table 8.5, Decor adversary
 * II): it sees what an eavesdropper sees and also knows the pairwise term {@code v_ij} it shares with {@code i},
 * so it removes it: {@code ghat_i - v_ij}. The noise left is {@code sqrt(sigma_cdp^2 + (d_i - 1) sigma_cor^2)}: only
 * {@code sigma_cdp} when {@code i} has no other neighbour, the reason Decor asks for a 2-connected graph.
 */
public final class CuriousNeighbour implements AttackObserver<GossipRound> {
    private final DecentralizedConfig config;
    private final int neighbour;

    /**
     * @param config    the run's settings
     * @param neighbour the observing node j, a neighbour of every node it attacks
     */
    public CuriousNeighbour(DecentralizedConfig config, int neighbour) {
        this.config = Objects.requireNonNull(config, "config must not be null");
        GossipReleases.requireSupported(config);
        this.neighbour = neighbour;
    }

    @Override
    public AttackSurface surface() {
        return new AttackSurface(config.algorithm().cliName(), "neighbour",
                "what an eavesdropper sees, plus the seed of its pairwise noise with the attacked node",
                "ghat_i - v_ij = g_i + w_i + sum_{k != j} v_ik",
                "a graph node that follows the protocol and pools its knowledge with no one");
    }

    @Override
    public AttackCase observe(GossipRound round, CaseContext context) {
        if (!round.tap().graph().hasEdge(round.node(), neighbour)) {
            throw new IllegalArgumentException("node " + neighbour + " is not a neighbour of the attacked node "
                    + round.node() + "; attack one of its neighbours " + java.util.Arrays.toString(
                    round.tap().graph().neighbours(neighbour)));
        }
        MultiLayerNetwork model = round.nodeModel();
        int degree = round.tap().graph().degree(round.node());
        return GossipReleases.caseOf(round, config, "neighbour",
                round.tap().releasedGradientSeenByNeighbour(round.node(), neighbour), model,
                GossipReleases.scale(config, model, context.truth()), GossipReleases.std(config, degree - 1),
                context, java.util.Map.of("neighbour", Integer.toString(neighbour)));
    }
}
