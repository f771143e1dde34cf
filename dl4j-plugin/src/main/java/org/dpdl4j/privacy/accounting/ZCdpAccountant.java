package org.dpdl4j.privacy.accounting;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Zero-concentrated DP accountant (Bun &amp; Steinke 2016): the ledger costs {@code rho} in total and the
 * conversion uses the linear RDP curve {@code alpha * rho} at its exact optimal order.
 *
 * <p>Supported: {@link GaussianEvent} ({@code rho = 1/(2z^2)} add/remove, {@code 2/z^2} replace-one),
 * {@link CorrelatedGaussianEvent} (via {@link CorrelatedGaussianEvent#toGaussian()}), {@link ZCdpEvent},
 * {@link LaplaceEvent} (pure {@code eps}-DP implies {@code eps^2/2}-zCDP, Bun &amp; Steinke Prop. 3.3; valid
 * but looser than the RDP accountant), {@link NoOpEvent}, {@link NonPrivateEvent}, self-composition and
 * composition. Refused: every sampled event, since zCDP has no tight amplification by subsampling (use
 * {@link RdpAccountant}).
 */
public final class ZCdpAccountant implements AdditiveAccountant {
    /** The accountant's name in bounds and reports. */
    public static final String NAME = "zcdp";
    private static final String SUPPORTED = "Gaussian, CorrelatedGaussian, ZCdp, Laplace, NoOp, NonPrivate events,"
            + " their self-composition and composition (no sampled events)";

    private final NeighbouringRelation relation;
    private final List<DpEvent> ledger;
    private double rho;

    public ZCdpAccountant(NeighbouringRelation relation) {
        this.relation = Objects.requireNonNull(relation, "neighbouring relation must not be null");
        this.ledger = new ArrayList<>();
    }

    private ZCdpAccountant(ZCdpAccountant other) {
        this.relation = other.relation;
        this.ledger = new ArrayList<>(other.ledger);
        this.rho = other.rho;
    }

    @Override
    public NeighbouringRelation relation() {
        return relation;
    }

    /** The total rho of the ledger ({@code +inf} after a non-private event). */
    public double rho() {
        return rho;
    }

    /** The rho of one event under this accountant's relation, without composing it. */
    public double rhoOf(DpEvent event) {
        requireSupported(event);
        return rhoOf(event, 1L);
    }

    @Override
    public boolean supports(DpEvent event) {
        return EventTree.refusal(event, ZCdpAccountant::leafRefusal) == null;
    }

    @Override
    public ZCdpAccountant compose(DpEvent event) {
        requireSupported(event);
        rho += rhoOf(event, 1L);
        ledger.add(event);
        return this;
    }

    @Override
    public ZCdpAccountant compose(DpEvent event, long count) {
        return compose(new SelfComposedEvent(event, count));
    }

    /** The event's rho, as a one-element vector. */
    @Override
    public double[] cost(DpEvent event) {
        return new double[] {rhoOf(event)};
    }

    /** The guarantee of a total rho {@code totalCost[0]}. */
    @Override
    public EpsilonBound epsilonBound(double[] totalCost, double delta, Conversion conversion) {
        if (totalCost.length != 1) {
            throw new IllegalArgumentException("a zCDP cost is one number (rho), got " + totalCost.length + " values");
        }
        return boundOfRho(totalCost[0], delta, conversion);
    }

    @Override
    public EpsilonBound epsilonBound(double delta, Conversion conversion) {
        return boundOfRho(rho, delta, conversion);
    }

    private static EpsilonBound boundOfRho(double rho, double delta, Conversion conversion) {
        ZCdp.requireDelta(delta);
        Objects.requireNonNull(conversion, "conversion must not be null");
        if (rho == 0.0) {
            return new EpsilonBound(0.0, delta, Double.NaN, conversion, NAME);
        }
        if (rho == Double.POSITIVE_INFINITY) {
            return new EpsilonBound(Double.POSITIVE_INFINITY, delta, Double.NaN, conversion, NAME);
        }
        double standardOrder = ZCdp.optimalOrder(rho, delta);
        if (conversion == Conversion.STANDARD) {
            return new EpsilonBound(ZCdp.epsilon(rho, delta), delta, standardOrder, conversion, NAME);
        }
        OrderSearch.Minimum min = OrderSearch.minimize(a -> conversion.epsilon(a, a * rho, delta), standardOrder);
        return new EpsilonBound(Math.max(0.0, min.value()), delta, min.order(), conversion, NAME);
    }

    @Override
    public double delta(double epsilon, Conversion conversion) {
        if (!(epsilon >= 0)) {
            throw new IllegalArgumentException("epsilon must be >= 0, got " + epsilon);
        }
        Objects.requireNonNull(conversion, "conversion must not be null");
        if (rho == 0.0) {
            return 0.0;
        }
        if (rho == Double.POSITIVE_INFINITY) {
            return 1.0;
        }
        if (conversion == Conversion.STANDARD) {
            // min over alpha of (alpha-1)(alpha rho - eps), attained at alpha = (eps + rho)/(2 rho) when eps > rho
            return epsilon <= rho ? 1.0 : Math.exp(-(epsilon - rho) * (epsilon - rho) / (4.0 * rho));
        }
        double guess = Math.max(1.001, (epsilon + rho) / (2.0 * rho));
        OrderSearch.Minimum min = OrderSearch.minimize(a -> conversion.logDelta(a, a * rho, epsilon), guess);
        return Math.exp(Math.min(0.0, min.value()));
    }

    @Override
    public List<DpEvent> ledger() {
        return List.copyOf(ledger);
    }

    @Override
    public ZCdpAccountant copy() {
        return new ZCdpAccountant(this);
    }

    @Override
    public String toString() {
        return "ZCdpAccountant(" + relation + ", rho=" + rho + ", " + ledger.size() + " ledger entries)";
    }

    private void requireSupported(DpEvent event) {
        Objects.requireNonNull(event, "event must not be null");
        String reason = EventTree.refusal(event, ZCdpAccountant::leafRefusal);
        if (reason != null) {
            throw new UnsupportedEventException("ZCdpAccountant(" + relation + ")", event, reason, SUPPORTED);
        }
    }

    private static String leafRefusal(DpEvent event) {
        if (event instanceof EnvelopeEvent) {
            return "an envelope of mechanisms is priced order by order; account it with RdpAccountant";
        }
        if (event instanceof RepeatAndSelectEvent) {
            return "the cost of tuning (repeat and select) is an RDP curve that is not linear in the order; account it with"
                    + " RdpAccountant";
        }
        if (event instanceof PoissonSampledEvent || event instanceof SampledWithoutReplacementEvent) {
            return "zCDP has no tight amplification by subsampling; account sampled mechanisms with RdpAccountant";
        }
        if (event instanceof GaussianEvent || event instanceof CorrelatedGaussianEvent || event instanceof ZCdpEvent
                || event instanceof LaplaceEvent || event instanceof NoOpEvent || event instanceof NonPrivateEvent) {
            return null;
        }
        return "unknown event type " + event.getClass().getName();
    }

    private double rhoOf(DpEvent event, long multiplicity) {
        double[] sum = {0.0};
        EventTree.forEachLeaf(event, multiplicity, (leaf, count) -> {
            double single = singleRho(leaf);
            if (single != 0.0) { // 0 * inf would be NaN
                sum[0] += count * single;
            }
        });
        return sum[0];
    }

    private double singleRho(DpEvent event) {
        boolean replace = relation == NeighbouringRelation.REPLACE_ONE;
        if (event instanceof NoOpEvent) {
            return 0.0;
        }
        if (event instanceof NonPrivateEvent) {
            return Double.POSITIVE_INFINITY;
        }
        if (event instanceof CorrelatedGaussianEvent correlated) {
            return singleRho(correlated.toGaussian());
        }
        if (event instanceof GaussianEvent gaussian) {
            double z = gaussian.noiseMultiplier();
            return z == Double.POSITIVE_INFINITY ? 0.0 : (replace ? 2.0 : 0.5) / (z * z);
        }
        if (event instanceof ZCdpEvent zcdp) {
            return zcdp.rho();
        }
        if (event instanceof LaplaceEvent laplace) {
            double eps = laplace.pureEpsilon(relation);
            return eps * eps / 2.0;
        }
        throw new IllegalStateException("no zCDP formula for " + event);
    }
}
