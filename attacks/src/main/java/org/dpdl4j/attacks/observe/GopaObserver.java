package org.dpdl4j.attacks.observe;

import java.util.Map;
import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.protocol.federated.FedAvgConfig;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * GOPA's server together with colluding clients (spec table 8.5): it sees every revealed value
 * {@code thetaHat_k = Clip_S(Delta_k) + sum_l Delta_kl + eta_k} and the colluders remove the pairwise terms they share
 * with client k. The noise left is {@code sqrt(sigma_eta^2 + d_k^H sigma_Delta^2)} with {@code d_k^H} the honest
 * neighbours of k; the update is {@code -eta c g} for one local step on one example.
 */
public final class GopaObserver implements AttackObserver<GopaView> {
    private final FedAvgConfig config;

    /** The server and colluders of a run with these settings (variant {@code gopa}). */
    public GopaObserver(FedAvgConfig config) {
        this.config = Objects.requireNonNull(config, "config must not be null");
        if (config.variant() != FedAvgVariant.GOPA) {
            throw new IllegalArgumentException("this observer reads GOPA, not " + config.variant().cliName());
        }
    }

    @Override
    public AttackSurface surface() {
        return new AttackSurface("gopa", "server + colluders",
                "every revealed value, and the colluders' pairwise secrets",
                "thetaHat_k - (colluders' pairwise terms) = -eta c g + eta_k + (honest neighbours' pairwise terms)",
                "the server colluding with some clients; knows the model, eta, S and the noise levels");
    }

    @Override
    public AttackCase observe(GopaView view, CaseContext context) {
        FederatedReleases.requireOneStep(config, context);
        ClientMessage message = view.message();
        MultiLayerNetwork model = message.globalModel();
        long p = model.numParams();
        INDArray observed = message.message().reshape(1, p).sub(view.colluderTerms().reshape(1, p)
                .castTo(message.message().dataType()));
        double sigmaEta = config.noiseMultiplier() * config.clipNorm();
        double sigmaDelta = config.pairwiseMultiplier() * config.clipNorm();
        double noise = Math.sqrt(sigmaEta * sigmaEta + view.honestNeighbours() * sigmaDelta * sigmaDelta);
        double factor = FederatedReleases.updateFactor(config, model, context, message.round());
        return FederatedReleases.caseOf(config, "server + colluders", model, observed, factor, noise, message.round(),
                message.client(), context, Map.of("honest_neighbours", Integer.toString(view.honestNeighbours())));
    }
}
