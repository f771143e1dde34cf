package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.privacy.accounting.CorrelatedGaussianEvent;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.PoissonSampledEvent;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SampledWithoutReplacementEvent;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.privacy.accounting.correlated.KappaResult;
import org.dpdl4j.privacy.accounting.correlated.SecRdpAccountant;
import org.dpdl4j.privacy.ledger.LedgerAccounting;

/**
 * The privacy analysis of one decentralized round: which mechanism each round is for the chosen adversary.
 * The run's {@link org.dpdl4j.privacy.ledger.RunLedger} records it every round and composes the rounds.
 *
 * <ul>
 *   <li>Decor and LDP: the SecRDP accountant's {@code kappa = max_i (Sigma_H^-1)_ii} for the adversary
 *       (eavesdropper, curious users, q colluders), {@code Sigma = sigma_cdp^2 I + sigma_cor^2 L}; LDP is
 *       Decor with sigma_cor = 0 (kappa = 1/sigma^2, any adversary).</li>
 *   <li>CDP: only the average model is released; its noise is the mean of n private terms, so
 *       {@code kappa = 1/(n sigma_cdp^2)}.</li>
 *   <li>User level: each round is the correlated Gaussian mechanism with contribution C under
 *       replace-one adjacency ({@code 2 alpha C^2 kappa} per round, spec 3.3).</li>
 *   <li>Example level: the contribution of one example to the averaged gradient is C/b; Poisson
 *       sampling at rate q = b/m (add/remove; spec 3.5.4 (a)) or fixed batches (replace-one, WBK19, (b)),
 *       with the largest rate over the nodes (the node with the least data is the most exposed).</li>
 * </ul>
 */
public final class DecentralizedPrivacy {
    private final DecentralizedConfig config;
    private final KappaResult kappa;
    private final double kappaValue;
    private final DpEvent perRound;
    private final NeighbouringRelation relation;
    private final Adversary adversary;

    private DecentralizedPrivacy(DecentralizedConfig config, KappaResult kappa, double kappaValue, DpEvent perRound,
                                 NeighbouringRelation relation, Adversary adversary) {
        this.config = config;
        this.kappa = kappa;
        this.kappaValue = kappaValue;
        this.perRound = perRound;
        this.relation = relation;
        this.adversary = adversary;
    }

    /**
     * The mechanism of one round of a private run.
     *
     * @param graph        the graph the noise was added on (Decor, LDP) - for CDP, any graph of n nodes
     * @param adversary    who observes (Decor; the baselines' kappa holds against any observer)
     * @param minLocalSize the smallest local dataset (sets the largest sampling rate at example level)
     */
    public static DecentralizedPrivacy of(DecentralizedConfig config, Graph graph, Adversary adversary, long minLocalSize) {
        if (!config.algorithm().isPrivate()) {
            throw new IllegalArgumentException("D-SGD adds no noise and has no privacy guarantee");
        }
        double k = switch (config.algorithm()) {
            case CDP -> 1.0 / (graph.vertexCount() * config.sigmaCdp() * config.sigmaCdp());
            case LDP -> 1.0 / (config.sigmaCdp() * config.sigmaCdp());
            default -> Double.NaN;
        };
        KappaResult kappa = config.algorithm() == DecentralizedAlgorithm.DECOR
                ? new SecRdpAccountant(graph).kappa(new org.dpdl4j.privacy.accounting.correlated.CorrelatedNoise(
                config.sigmaCdp(), config.sigmaCor()), adversary)
                : null;
        double kappaValue = kappa != null ? kappa.kappa() : k;
        DpEvent mechanism;
        NeighbouringRelation relation;
        if (config.unit() == ProtectedUnit.USER || config.sampling() == SamplingScheme.FULL_BATCH) {
            double contribution = config.unit() == ProtectedUnit.USER ? config.clipNorm()
                    : config.clipNorm() / minLocalSize;
            mechanism = new CorrelatedGaussianEvent(kappaValue, contribution);
            relation = NeighbouringRelation.REPLACE_ONE;
        } else {
            CorrelatedGaussianEvent base = new CorrelatedGaussianEvent(kappaValue, config.clipNorm() / config.batchSize());
            if (config.sampling() == SamplingScheme.POISSON) {
                mechanism = new PoissonSampledEvent(Math.min(1.0, (double) config.batchSize() / minLocalSize), base);
                relation = NeighbouringRelation.ADD_OR_REMOVE_ONE;
            } else {
                mechanism = new SampledWithoutReplacementEvent(minLocalSize, Math.min(config.batchSize(), minLocalSize), base);
                relation = NeighbouringRelation.REPLACE_ONE;
            }
        }
        return new DecentralizedPrivacy(config, kappa, kappaValue, mechanism, relation, adversary);
    }

    /** The per-round mechanism: what the ledger records every round. */
    public DpEvent perRound() {
        return perRound;
    }

    /**
     * Epsilon after {@code rounds} rounds like this one (planning; standard accountant and conversion): what a run's
     * ledger reports after them.
     */
    public double plannedEpsilon(long rounds, double delta) {
        return LedgerAccounting.standard(relation).plannedEpsilon(perRound, rounds, delta);
    }

    /** The neighbouring relation the per-round mechanism is analysed under. */
    public NeighbouringRelation relation() {
        return relation;
    }

    /** The kappa of the Decor accountant (null for the baselines, whose kappa is closed-form). */
    public KappaResult kappa() {
        return kappa;
    }

    /** kappa of every algorithm: the largest diagonal entry of the inverse noise covariance the adversary faces. */
    public double kappaValue() {
        return kappaValue;
    }

    /** The adversary the kappa is computed for. */
    public Adversary adversary() {
        return adversary;
    }

    /** The per-round mechanism in words, for the ledger. */
    public String describe() {
        DecentralizedAlgorithm a = config.algorithm();
        String noise = switch (a) {
            case DECOR -> String.format(java.util.Locale.ROOT, "private N(0, %.6g^2) + pairwise N(0, %.6g^2) noise, kappa = %.6g"
                    + " against %s", config.sigmaCdp(), config.sigmaCor(), kappaValue, adversary.describe());
            case LDP -> String.format(java.util.Locale.ROOT, "private N(0, %.6g^2) noise per node", config.sigmaCdp());
            case CDP -> String.format(java.util.Locale.ROOT, "private N(0, %.6g^2) noise per node, average model only",
                    config.sigmaCdp());
            case DSGD -> "no noise";
        };
        return a.cliName() + " round: " + (config.unit() == ProtectedUnit.USER ? "user" : "example") + "-level, clip C = "
                + config.clipNorm() + ", " + noise;
    }

    public DecentralizedConfig config() {
        return config;
    }
}
