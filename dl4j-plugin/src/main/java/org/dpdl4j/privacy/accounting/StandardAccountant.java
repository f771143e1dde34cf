package org.dpdl4j.privacy.accounting;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The library's default accountant: a ledger made only of unsampled Gaussian mechanisms (plain or correlated,
 * or events already stated in zCDP) has a linear RDP curve {@code alpha * rho}, whose conversion to
 * {@code (epsilon, delta)} has an exact optimum ({@link ZCdpAccountant}); every other ledger (a subsampled
 * step, a Laplace release) is priced by {@link RdpAccountant} over its default orders. Both bounds are valid, and
 * for a linear ledger the exact one is never above the order grid's minimum.
 *
 * <p>Cost vectors ({@link AdditiveAccountant}) are the RDP curve followed by two numbers: the event's rho (0 when it
 * is not linear) and a marker that counts the non-linear events, so a summed ledger knows which conversion applies.
 */
public final class StandardAccountant implements AdditiveAccountant {
    private final RdpAccountant rdp;
    private final ZCdpAccountant zcdp;
    private boolean allLinear = true;

    public StandardAccountant(NeighbouringRelation relation) {
        this.rdp = new RdpAccountant(relation);
        this.zcdp = new ZCdpAccountant(relation);
    }

    private StandardAccountant(StandardAccountant other) {
        this.rdp = other.rdp.copy();
        this.zcdp = other.zcdp.copy();
        this.allLinear = other.allLinear;
    }

    /**
     * Whether every leaf of the event is an unsampled Gaussian mechanism (or a zCDP, no-op or non-private event),
     * so that its RDP curve is linear in the order. Laplace releases are not: zCDP prices them loosely.
     */
    public static boolean isLinear(DpEvent event) {
        if (event instanceof SelfComposedEvent self) {
            return isLinear(self.event());
        }
        if (event instanceof ComposedEvent composed) {
            return composed.events().stream().allMatch(StandardAccountant::isLinear);
        }
        return event instanceof GaussianEvent || event instanceof CorrelatedGaussianEvent || event instanceof ZCdpEvent
                || event instanceof NoOpEvent || event instanceof NonPrivateEvent;
    }

    @Override
    public NeighbouringRelation relation() {
        return rdp.relation();
    }

    @Override
    public boolean supports(DpEvent event) {
        return rdp.supports(event);
    }

    @Override
    public StandardAccountant compose(DpEvent event) {
        rdp.compose(event);   // refuses unsupported events before anything changes
        if (isLinear(event)) {
            zcdp.compose(event);
        } else {
            allLinear = false;
        }
        return this;
    }

    @Override
    public StandardAccountant compose(DpEvent event, long count) {
        return compose(new SelfComposedEvent(event, count));
    }

    @Override
    public EpsilonBound epsilonBound(double delta, Conversion conversion) {
        return allLinear ? zcdp.epsilonBound(delta, conversion) : rdp.epsilonBound(delta, conversion);
    }

    @Override
    public double delta(double epsilon, Conversion conversion) {
        return allLinear ? zcdp.delta(epsilon, conversion) : rdp.delta(epsilon, conversion);
    }

    @Override
    public double[] cost(DpEvent event) {
        Objects.requireNonNull(event, "event must not be null");
        double[] curve = rdp.cost(event);
        double[] out = Arrays.copyOf(curve, curve.length + 2);
        if (isLinear(event)) {
            out[curve.length] = zcdp.rhoOf(event);
        } else {
            out[curve.length + 1] = 1.0;
        }
        return out;
    }

    @Override
    public EpsilonBound epsilonBound(double[] totalCost, double delta, Conversion conversion) {
        int orders = totalCost.length - 2;
        if (orders < 1) {
            throw new IllegalArgumentException("a standard cost vector holds an RDP curve and two markers, got "
                    + totalCost.length + " values");
        }
        if (totalCost[orders + 1] == 0.0) {
            return zcdp.epsilonBound(new double[] {totalCost[orders]}, delta, conversion);
        }
        return rdp.epsilonBound(Arrays.copyOf(totalCost, orders), delta, conversion);
    }

    @Override
    public List<DpEvent> ledger() {
        return rdp.ledger();
    }

    @Override
    public StandardAccountant copy() {
        return new StandardAccountant(this);
    }

    @Override
    public String toString() {
        return "StandardAccountant(" + relation() + ", " + (allLinear ? "exact zCDP" : "RDP") + ", "
                + rdp.ledger().size() + " ledger entries)";
    }
}
