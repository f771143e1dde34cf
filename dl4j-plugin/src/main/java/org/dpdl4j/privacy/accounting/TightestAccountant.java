package org.dpdl4j.privacy.accounting;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The library's default accountant: every accountant that can analyse the whole ledger prices it, and the smallest
 * epsilon is the guarantee, with the name of the accountant that gave it ({@link EpsilonBound#accountant()}). Each
 * candidate is a valid upper bound on the true epsilon, so their minimum is one:
 * <ul>
 *   <li>{@link RdpAccountant} (Renyi DP over a grid of orders) - every event, the only analysis of tuning, envelopes and
 *   sampling without replacement;</li>
 *   <li>{@link ZCdpAccountant} - the exact optimum of the conversion for linear ledgers;</li>
 *   <li>{@link ExactGaussianAccountant} - the true epsilon of a ledger of unsampled Gaussian releases (correlated ones
 *   included);</li>
 *   <li>{@link PldAccountant} - privacy loss distributions, the tightest for sampled Gaussians and Laplace releases.</li>
 * </ul>
 * The first three are additive ({@link #additive()}: the ledger layer prices them after every step in a few hundred
 * additions); the PLD is asked only when it can improve on them, i.e. unless the exact Gaussian curve applies (nothing
 * valid is below the true epsilon).
 */
public final class TightestAccountant implements PrivacyAccountant {
    /** The accountant's name in reports: the tightest bound among the candidates. */
    public static final String NAME = "tightest of rdp, zcdp, gaussian, pld";

    private final TightestAdditiveAccountant additive;
    private final PldAccountant pld;
    private String pldRefusal;

    public TightestAccountant(NeighbouringRelation relation) {
        this.additive = new TightestAdditiveAccountant(relation);
        this.pld = new PldAccountant(relation);
    }

    private TightestAccountant(TightestAccountant other) {
        this.additive = other.additive.copy();
        this.pld = other.pld.copy();
        this.pldRefusal = other.pldRefusal;
    }

    /** The additive candidates (RDP, zCDP, exact Gaussian) holding the same ledger. */
    public TightestAdditiveAccountant additive() {
        return additive;
    }

    /** Whether the PLD accountant still takes part (it refuses events it cannot analyse, then drops out for good). */
    public boolean pldApplies() {
        return pldRefusal == null;
    }

    @Override
    public NeighbouringRelation relation() {
        return additive.relation();
    }

    @Override
    public boolean supports(DpEvent event) {
        return additive.supports(event);
    }

    @Override
    public TightestAccountant compose(DpEvent event) {
        additive.compose(event); // refuses what no candidate analyses, before anything changes
        if (pldRefusal == null) {
            if (pld.supports(event)) {
                pld.compose(event);
            } else {
                pldRefusal = "refused " + event;
            }
        }
        return this;
    }

    @Override
    public TightestAccountant compose(DpEvent event, long count) {
        return compose(new SelfComposedEvent(event, count));
    }

    @Override
    public EpsilonBound epsilonBound(double delta, Conversion conversion) {
        return tightest(additive.epsilonBound(delta, conversion), pldApplies() ? pld : null, delta, conversion);
    }

    /**
     * The smaller of an additive bound and the PLD's (when given, and unless the additive one is already exact).
     * Shared with the ledger layer, which keeps the additive part in a running tally.
     */
    public static EpsilonBound tightest(EpsilonBound additiveBound, PldAccountant pldOfLedger, double delta, Conversion conversion) {
        Objects.requireNonNull(additiveBound, "additive bound");
        if (pldOfLedger == null || additiveBound.accountant().equals(ExactGaussianAccountant.NAME)) {
            return additiveBound;
        }
        EpsilonBound p = pldOfLedger.epsilonBound(delta, conversion);
        return p.epsilon() < additiveBound.epsilon() ? p : additiveBound;
    }

    /** Every applicable accountant's bound, by name (rdp, zcdp, gaussian, pld), for side-by-side reports. */
    public Map<String, EpsilonBound> bounds(double delta, Conversion conversion) {
        Map<String, EpsilonBound> out = new LinkedHashMap<>(additive.bounds(delta, conversion));
        if (pldApplies()) {
            out.put(PldAccountant.NAME, pld.epsilonBound(delta, conversion));
        }
        return out;
    }

    @Override
    public double delta(double epsilon, Conversion conversion) {
        double d = additive.delta(epsilon, conversion);
        return pldApplies() ? Math.min(d, pld.delta(epsilon, conversion)) : d;
    }

    @Override
    public List<DpEvent> ledger() {
        return additive.ledger();
    }

    /** {@value AccountantFactory#TIGHTEST}. */
    @Override
    public String pricing() {
        return AccountantFactory.TIGHTEST;
    }

    @Override
    public TightestAccountant copy() {
        return new TightestAccountant(this);
    }

    @Override
    public String toString() {
        return "TightestAccountant(" + relation() + ", " + ledger().size() + " ledger entries"
                + (pldApplies() ? "" : ", PLD out: " + pldRefusal) + ")";
    }
}
