package org.dpdl4j.protocol.muffliato;

import java.util.Locale;
import java.util.Objects;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.Charge;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;

/**
 * The accounting of Muffliato-GD, user level (one node's whole dataset replaced).
 * <ul>
 *   <li><b>Local DP (the ledger's guarantee)</b>: every round each node releases its clipped gradient plus
 *       {@code N(0, sigma^2 I)}, a Gaussian mechanism with noise multiplier {@code sigma / L} under replace-one
 *       (sensitivity 2L), composed over the K rounds. It holds against an observer of every message.</li>
 *   <li><b>Pairwise network DP (reported beside it)</b>: {@link PairwiseNetworkDp}'s exact divergence of one round's
 *       view of v about u, composed over the rounds. One round is exactly a Muffliato averaging; composing rounds treats
 *       each round's inputs as if v could not learn more about them than its view, which is how the paper composes
 *       Muffliato-GD and is not a proof for non-linear training: the statement says so and never puts it in place of
 *       local DP.</li>
 * </ul>
 */
public final class MuffliatoPrivacy {
    private final PairwiseNetworkDp pairwise;
    private final double clip;
    private final double sigma;
    private final double delta;
    private final long rounds;

    /**
     * @param pairwise the exposures of the run's graph, W and T
     * @param clip     L
     * @param sigma    noise std, > 0
     * @param delta    delta of every epsilon
     * @param rounds   K
     */
    public MuffliatoPrivacy(PairwiseNetworkDp pairwise, double clip, double sigma, double delta, long rounds) {
        this.pairwise = Objects.requireNonNull(pairwise, "pairwise accountant");
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("private Muffliato needs noise sigma > 0, got " + sigma);
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must lie in (0, 1), got " + delta);
        }
        this.clip = clip;
        this.sigma = sigma;
        this.delta = delta;
        this.rounds = rounds;
    }

    /** What one node releases in one round, as the ledger charges it to that node. */
    public DpEvent perRound() {
        return new GaussianEvent(sigma / clip);
    }

    /** Node {@code node}'s release of one round, as the ledger charges it. */
    public Charge roundOf(int node) {
        return new Charge(node, perRound(), describe());
    }

    /** The ledger after every round: each round charges every one of the {@code nodes} nodes its release. */
    public PrivacyLedger plannedLedger(int nodes, boolean secureNoise) {
        return PrivacyLedger.planned(rounds, round -> java.util.stream.IntStream.range(0, nodes).mapToObj(this::roundOf).toList(),
                secureNoise);
    }

    /** One node's dataset replaced. */
    public NeighbouringRelation relation() {
        return NeighbouringRelation.REPLACE_ONE;
    }

    /** A round's release in words. */
    public String describe() {
        return String.format(Locale.ROOT, "Muffliato round: the node's gradient clipped to L = %.6g + N(0, %.6g^2), then gossip",
                clip, sigma);
    }

    /** Local DP after all rounds, priced as the ledger prices it. */
    public double localEpsilon() {
        return LedgerAccounting.standard(relation()).plannedEpsilon(perRound(), rounds, delta);
    }

    /** Pairwise network DP over all pairs after all rounds. */
    public PairwiseSummary pairwise() {
        return pairwise.summary(sigma / (2 * clip), rounds, delta);
    }

    /** The exposures behind {@link #pairwise()}. */
    public PairwiseNetworkDp accountant() {
        return pairwise;
    }

    /**
     * Both numbers, local DP first: local DP is what {@code spent} (the run's ledger) has composed from the rounds
     * actually released, whatever settings each segment of a resumed run had; pairwise network DP is planned, for these
     * settings over all their rounds.
     */
    public String statement(RunLedger spent) {
        PairwiseSummary s = pairwise();
        return String.format(Locale.ROOT, "  local DP (the guarantee, against an observer of all messages; the ledger's composition of"
                        + " the rounds released so far): epsilon = %s at delta = %s%n"
                        + "  pairwise network DP (observer v of the messages its neighbours send, knowing its own noise; exact per"
                        + " round, composed over rounds as in the paper, reported beside local DP, not in its place; planned: sigma"
                        + " = %s over all %d rounds):%n"
                        + "    mean %s, median %s, p90 %s, max %s over %d ordered pairs (same conversion for local DP: %s)%n",
                EpsilonFormat.upward(spent.epsilon()), spent.delta(), sigma, rounds, EpsilonFormat.upward(s.mean()),
                EpsilonFormat.upward(s.median()), EpsilonFormat.upward(s.p90()), EpsilonFormat.upward(s.max()),
                (long) pairwise.size() * (pairwise.size() - 1), EpsilonFormat.upward(s.local()))
                + (spent.segment() > 0 ? "    The run was resumed under changed settings: these pairwise figures"
                + " are those of the current settings alone and do not cover the earlier segments' rounds, which may have"
                + " spent more; only local DP above composes every round released.\n" : "");
    }
}
