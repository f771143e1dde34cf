package org.dpdl4j.attacks.observe;

import java.util.Map;
import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.protocol.federated.FedAvgConfig;
import org.dpdl4j.protocol.federated.FedAvgVariant;

/**
 * The server of DP-FedAvg with local DP (spec table 8.5): it sees each client's clipped update plus the client's
 * own noise, {@code Clip_S(Delta_k) + N(0, (zS)^2 I)}; with one local step on one example that is
 * {@code -eta c g + noise} with the clip factor c unknown to it.
 */
public final class DpFedAvgLocalObserver implements AttackObserver<ClientMessage> {
    private final FedAvgConfig config;

    /** The server of a run with these settings (variant {@code dp-fedavg-local}). */
    public DpFedAvgLocalObserver(FedAvgConfig config) {
        this.config = Objects.requireNonNull(config, "config must not be null");
        if (config.variant() != FedAvgVariant.DP_LOCAL) {
            throw new IllegalArgumentException("this observer reads DP-FedAvg with local DP, not "
                    + config.variant().cliName());
        }
    }

    @Override
    public AttackSurface surface() {
        return new AttackSurface(config.variant().cliName(), "server",
                "each client's noisy clipped update and the model it broadcast",
                "Clip_S(Delta_k) + N(0, (zS)^2 I) = -eta c g + noise (L = 1)",
                "untrusted server: knows the model, eta, S and z, not the clip factor c");
    }

    @Override
    public AttackCase observe(ClientMessage message, CaseContext context) {
        FederatedReleases.requireOneStep(config, context);
        MultiLayerNetwork model = message.globalModel();
        double factor = FederatedReleases.updateFactor(config, model, context, message.round());
        return FederatedReleases.caseOf(config, "server", model, message.message(), factor,
                config.noiseMultiplier() * config.clipNorm(), message.round(), message.client(), context, Map.of());
    }
}
