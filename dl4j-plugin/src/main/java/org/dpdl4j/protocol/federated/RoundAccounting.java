package org.dpdl4j.protocol.federated;

import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.CorrelatedGaussianEvent;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.EpsilonBound;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.RdpAccountant;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.privacy.accounting.ZCdpAccountant;

import java.util.Objects;

/**
 * Epsilon after any number of identical rounds, fast enough for a progress bar: the round's RDP curve is
 * computed once; when the round is an unsampled Gaussian mechanism the curve is linear and the standard
 * conversion uses its exact optimum instead of a finite order grid.
 */
public final class RoundAccounting {
    private final DpEvent perRound;
    private final RdpAccountant accountant;
    private final double[] curve;
    private final double rhoPerRound;
    private final double delta;

    /**
     * @param perRound the mechanism of one round
     * @param relation the neighbouring relation it is analysed under
     * @param delta    delta of every epsilon
     */
    public RoundAccounting(DpEvent perRound, NeighbouringRelation relation, double delta) {
        this.perRound = Objects.requireNonNull(perRound, "per-round event");
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must lie in (0, 1), got " + delta);
        }
        this.accountant = new RdpAccountant(relation);
        this.curve = accountant.curve(perRound);
        this.rhoPerRound = perRound instanceof GaussianEvent || perRound instanceof CorrelatedGaussianEvent
                ? new ZCdpAccountant(relation).rhoOf(perRound) : Double.NaN;
        this.delta = delta;
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

    /** An accountant holding {@code rounds} rounds in its ledger (for statements). */
    public RdpAccountant ledger(long rounds) {
        return accountant.copy().compose(perRound, rounds);
    }

    public DpEvent perRound() {
        return perRound;
    }

    public NeighbouringRelation relation() {
        return accountant.relation();
    }

    public double delta() {
        return delta;
    }
}
