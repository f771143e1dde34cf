package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.CorrelatedGaussianEvent;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.EpsilonBound;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.PoissonSampledEvent;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.RdpAccountant;
import org.dpdl4j.privacy.accounting.SampledWithoutReplacementEvent;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.privacy.accounting.ZCdpAccountant;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.privacy.accounting.correlated.KappaResult;
import org.dpdl4j.privacy.accounting.correlated.SecRdpAccountant;

/**
 * The privacy accounting of one decentralized run: which mechanism each round is for the chosen
 * adversary, and the epsilon after any number of rounds.
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
    private final RdpAccountant accountant;
    private final DpEvent perRound;
    private final double[] curve;
    private final double rhoPerRound;
    private final double delta;

    private DecentralizedPrivacy(DecentralizedConfig config, KappaResult kappa, RdpAccountant accountant, DpEvent perRound,
                                 double delta) {
        this.config = config;
        this.kappa = kappa;
        this.accountant = accountant;
        this.perRound = perRound;
        this.curve = accountant.curve(perRound);
        // Without subsampling the round is a Gaussian mechanism: its RDP curve is linear (rho-zCDP) and the
        // conversion has the exact closed form, slightly tighter than a minimum over a finite order grid.
        this.rhoPerRound = perRound instanceof CorrelatedGaussianEvent
                ? new ZCdpAccountant(accountant.relation()).rhoOf(perRound) : Double.NaN;
        this.delta = delta;
    }

    /**
     * The accounting of a private run.
     *
     * @param graph        the graph the noise was added on (Decor, LDP) - for CDP, any graph of n nodes
     * @param minLocalSize the smallest local dataset (sets the largest sampling rate at example level)
     */
    public static DecentralizedPrivacy of(DecentralizedConfig config, Graph graph, Adversary adversary, long minLocalSize,
                                          double delta) {
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
        return new DecentralizedPrivacy(config, kappa, new RdpAccountant(relation), mechanism, delta);
    }

    /** Epsilon after {@code rounds} rounds (standard conversion). */
    public double epsilon(long rounds) {
        return bound(rounds, Conversion.STANDARD).epsilon();
    }

    /** The guarantee after {@code rounds} rounds. */
    public EpsilonBound bound(long rounds, Conversion conversion) {
        if (!Double.isNaN(rhoPerRound) && conversion == Conversion.STANDARD) {
            double rho = rounds * rhoPerRound;
            return new EpsilonBound(rho == 0 ? 0.0 : ZCdp.epsilon(rho, delta), delta,
                    rho == 0 ? Double.NaN : ZCdp.optimalOrder(rho, delta), conversion);
        }
        return accountant.epsilonBound(curve, rounds, delta, conversion);
    }

    /** The per-round mechanism. */
    public DpEvent perRound() {
        return perRound;
    }

    /** The kappa of the Decor accountant (null for the baselines, whose kappa is closed-form). */
    public KappaResult kappa() {
        return kappa;
    }

    public NeighbouringRelation relation() {
        return accountant.relation();
    }

    public double delta() {
        return delta;
    }

    public DecentralizedConfig config() {
        return config;
    }
}
