package org.dpdl4j.attacks.observe;

import java.util.Map;
import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.protocol.federated.FedAvgConfig;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Anyone who sees the global models of a FedAvg-family run (the adversary of DP-FedAvg with central DP, whose server
 * is trusted): {@code (theta_(t+1) - theta_t) / serverRate} is the weighted average of the updates plus, with central
 * DP, {@code N(0, (zS)^2 I)} over the expected number of participants. Knowing the other participants' updates (the
 * worst case) it keeps {@code w Delta_k + noise}, with {@code Delta_k = -eta c g} for one local step on one example.
 */
public final class FedAvgAggregateObserver implements AttackObserver<AggregateView> {
    private final FedAvgConfig config;
    private final int clients;

    /**
     * @param config  the run (plain FedAvg or DP-FedAvg with central DP)
     * @param clients the number of clients N
     */
    public FedAvgAggregateObserver(FedAvgConfig config, int clients) {
        this.config = Objects.requireNonNull(config, "config must not be null");
        if (config.variant() != FedAvgVariant.FEDAVG && config.variant() != FedAvgVariant.DP_CENTRAL) {
            throw new IllegalArgumentException("the aggregate observer reads FedAvg or DP-FedAvg with central DP, not "
                    + config.variant().cliName());
        }
        this.clients = clients;
    }

    @Override
    public AttackSurface surface() {
        return new AttackSurface(config.variant().cliName(), "aggregate",
                "the global model of every round",
                "(theta_(t+1) - theta_t) / serverRate - (known others' share) = w Delta_k + noise / E[K]",
                "sees only the broadcast models; knows every other participant's data (worst case)");
    }

    @Override
    public AttackCase observe(AggregateView view, CaseContext context) {
        FederatedReleases.requireOneStep(config, context);
        MultiLayerNetwork model = view.template().clone();
        model.setParams(view.before().dup().reshape(1, model.numParams()).castTo(model.params().dataType()));
        long p = model.numParams();
        INDArray observed = view.after().reshape(1, p).sub(view.before().reshape(1, p)).divi(config.serverRate())
                .subi(view.othersAverage().reshape(1, p).castTo(view.after().dataType()));
        double factor = FederatedReleases.updateFactor(config, model, context, view.round()) * view.weight();
        double noise = config.variant() == FedAvgVariant.DP_CENTRAL
                ? config.noiseMultiplier() * config.clipNorm() / config.sampling().expectedCount(clients) : 0.0;
        return FederatedReleases.caseOf(config, "aggregate", model, observed, factor, noise, view.round(),
                view.client(), context, Map.of("weight", Double.toString(view.weight()),
                        "others", "known (worst case)"));
    }
}
