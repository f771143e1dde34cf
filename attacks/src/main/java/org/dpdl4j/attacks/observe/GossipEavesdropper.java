package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.protocol.decentralized.DecentralizedConfig;

/**
 * An eavesdropper on the links of a gossip run (D-SGD, Decor, LDP; spec table 8.5): it follows every message, so
 * it knows a node's model {@code x_i^t} and reads its half-step {@code x_i^(t+1/2)}, hence the released gradient
 * {@code ((1 - eta lambda) x_i^t - x_i^(t+1/2)) / eta = g_i + w_i + sum_j v_ij}. The noise left per coordinate is
 * 0 (D-SGD), {@code sigma_cdp} (LDP) or {@code sqrt(sigma_cdp^2 + d_i sigma_cor^2)} (Decor).
 */
public final class GossipEavesdropper implements AttackObserver<GossipRound> {
    private final DecentralizedConfig config;

    /** The eavesdropper of a run with the given settings. */
    public GossipEavesdropper(DecentralizedConfig config) {
        this.config = Objects.requireNonNull(config, "config must not be null");
        GossipReleases.requireSupported(config);
    }

    @Override
    public AttackSurface surface() {
        return new AttackSurface(config.algorithm().cliName(), "eavesdropper",
                "every message: a node's model x_i^t and its broadcast half-step x_i^(t+1/2)",
                "((1 - eta lambda) x_i^t - x_i^(t+1/2)) / eta = g_i + w_i + sum_j v_ij",
                "outside the graph; knows the learning rate, the decay and the noise levels, no secret");
    }

    @Override
    public AttackCase observe(GossipRound round, CaseContext context) {
        MultiLayerNetwork model = round.nodeModel();
        int degree = round.tap().graph().degree(round.node());
        return GossipReleases.caseOf(round, config, "eavesdropper", round.tap().releasedGradient(round.node()), model,
                GossipReleases.scale(config, model, context.truth()), GossipReleases.std(config, degree), context,
                java.util.Map.of());
    }
}
