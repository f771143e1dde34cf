package org.dpdl4j.attacks.observe;

import java.util.Map;
import java.util.TreeMap;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.ObservationScale;
import org.dpdl4j.attacks.ReleaseOrigin;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedConfig;
import org.dpdl4j.protocol.decentralized.LocalObjective;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What the decentralized engine puts into a node's released gradient {@code ghat_i = g_i + w_i + sum_j v_ij}
 * (Decor spec 3.2), read from the run's configuration: the factor relating it to the gradient of the node's
 * batch and the std of each noise term. Shared by the observers of gossip runs.
 */
final class GossipReleases {
    private GossipReleases() {
    }

    /** Refuses settings whose pairwise terms the observers cannot account for. */
    static void requireSupported(DecentralizedConfig config) {
        if (config.compatibility().scaleByMixingWeight()) {
            throw new IllegalArgumentException("the reference-code compatibility mode scales each pairwise term by W_ij,"
                    + " which the round tap does not report; observe runs that follow the paper"
                    + " (DecorCompatibility.NONE)");
        }
    }

    /** Std of a node's private noise {@code w_i} (0 for D-SGD). */
    static double privateStd(DecentralizedConfig config) {
        return config.algorithm().isPrivate() ? config.sigmaCdp() : 0.0;
    }

    /** Std of the sum of {@code pairwiseTerms} pairwise terms plus the private noise (pairwise noise: Decor only). */
    static double std(DecentralizedConfig config, int pairwiseTerms) {
        double p = privateStd(config);
        double c = config.algorithm() == DecentralizedAlgorithm.DECOR ? config.sigmaCor() : 0.0;
        return Math.sqrt(p * p + pairwiseTerms * c * c);
    }

    /**
     * The true factor between a node's released gradient and the gradient of the mean loss of its batch. D-SGD
     * releases the batch mean (factor 1) or sum (factor b); private runs clip: the whole local gradient at user
     * level (one factor), each example at example level (a single factor only for one example), then divide by
     * the expected batch size at example level. Clipped releases have a scale the attacker does not know.
     */
    static ObservationScale scale(DecentralizedConfig config, MultiLayerNetwork model, GroundTruth truth) {
        int b = truth.size();
        boolean sum = config.objective() == LocalObjective.SUM;
        if (!config.algorithm().isPrivate()) {
            return ObservationScale.known(sum ? b : 1.0);
        }
        if (config.unit() == ProtectedUnit.USER) {
            double c = ClipFactor.of(model, truth, config.clipNorm(), sum);
            return ObservationScale.unknownPositive(c * (sum ? b : 1.0));
        }
        if (b != 1) {
            throw new IllegalArgumentException("example-level clipping scales each of the " + b + " examples of the"
                    + " node's batch by its own factor, so the release is not a multiple of the batch gradient; attack"
                    + " rounds in which the node holds one example");
        }
        double c = ClipFactor.of(model, truth, config.clipNorm(), true);
        double divisor = !sum && config.sampling() != SamplingScheme.FULL_BATCH ? config.batchSize() : 1.0;
        return ObservationScale.unknownPositive(c / divisor);
    }

    /** The case, with the common provenance of gossip observers. */
    static AttackCase caseOf(GossipRound round, DecentralizedConfig config, String observer, INDArray observed,
                             MultiLayerNetwork model, ObservationScale scale, double noiseStd, CaseContext context,
                             Map<String, String> extra) {
        Map<String, String> details = new TreeMap<>(context.details());
        details.putAll(extra);
        ReleaseOrigin provenance = new ReleaseOrigin(config.algorithm().cliName(), observer, round.tap().round(),
                context.modelAccuracy(), details)
                .with("node", Integer.toString(round.node()))
                .with("degree", Integer.toString(round.tap().graph().degree(round.node())))
                .with("learning_rate", Double.toString(round.tap().eta()))
                .with("weight_decay", Double.toString(round.tap().weightDecay()))
                .with("sigma_cdp", Double.toString(privateStd(config)))
                .with("sigma_cor", Double.toString(config.algorithm() == DecentralizedAlgorithm.DECOR
                        ? config.sigmaCor() : 0.0))
                .with("scale_known", Boolean.toString(scale.knownToAttacker()));
        return new AttackCase(model, observed.dup().reshape(1, model.numParams()).castTo(model.params().dataType()),
                scale, noiseStd, context.truth().size(), context.truth(), provenance);
    }
}
