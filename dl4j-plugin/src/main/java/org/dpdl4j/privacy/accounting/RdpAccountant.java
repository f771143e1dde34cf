package org.dpdl4j.privacy.accounting;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Renyi-DP accountant: keeps the composed RDP curve {@code eps_R(alpha)} on a fixed set of orders
 * (composition adds curves order by order) and converts it to {@code (eps, delta)} by minimising over
 * the orders.
 *
 * <p>Supported events (C is the contribution bound, z the noise multiplier; see {@link DpEvent}):
 * <ul>
 *   <li>{@link GaussianEvent}: {@code alpha/(2z^2)} (add/remove) or {@code 2 alpha/z^2} (replace-one), any order;</li>
 *   <li>{@link CorrelatedGaussianEvent}: reduced to {@link CorrelatedGaussianEvent#toGaussian()};</li>
 *   <li>{@link LaplaceEvent}: exact curve (Mironov 2017, Prop. 6) with scale ratio z (add/remove) or z/2 (replace-one);</li>
 *   <li>{@link ZCdpEvent}: {@code alpha * rho};</li>
 *   <li>{@link PoissonSampledEvent} of a Gaussian or correlated Gaussian, add/remove only: Mironov, Talwar &amp;
 *       Zhang 2019, exact at integer and real orders;</li>
 *   <li>{@link SampledWithoutReplacementEvent} of a Gaussian or correlated Gaussian, replace-one only:
 *       Wang, Balle &amp; Kasiviswanathan 2019, Thm. 9 at integer orders, and at real orders the chord of
 *       {@code (alpha-1) eps_R} between the neighbouring integers (a valid bound by convexity);</li>
 *   <li>{@link SelfComposedEvent}, {@link ComposedEvent} of supported events; {@link NoOpEvent}
 *       (zero) and {@link NonPrivateEvent} (infinite).</li>
 * </ul>
 * Refused: Poisson sampling under replace-one, sampling without replacement under add/remove, nested
 * sampling or composition inside a sample, and sampled mechanisms other than the Gaussian.
 */
public final class RdpAccountant implements AdditiveAccountant {
    /** The accountant's name in bounds and reports. */
    public static final String NAME = "rdp";
    private static final String SUPPORTED = "Gaussian, CorrelatedGaussian, Laplace, ZCdp, NoOp, NonPrivate events,"
            + " their self-composition and composition, Poisson-sampled (Correlated)Gaussian under ADD_OR_REMOVE_ONE,"
            + " (Correlated)Gaussian sampled without replacement under REPLACE_ONE, repeat-and-select (tuning) and envelopes of any of these";

    private final NeighbouringRelation relation;
    private final double[] orders;
    private final double[] rdp;
    private final List<DpEvent> ledger;

    /** An accountant on {@link #defaultOrders()}. */
    public RdpAccountant(NeighbouringRelation relation) {
        this(relation, defaultOrders());
    }

    /**
     * @param relation the neighbouring relation of every guarantee
     * @param orders RDP orders, each finite and {@code > 1}; sorted and de-duplicated here
     */
    public RdpAccountant(NeighbouringRelation relation, double[] orders) {
        this.relation = Objects.requireNonNull(relation, "neighbouring relation must not be null");
        this.orders = validatedOrders(orders);
        this.rdp = new double[this.orders.length];
        this.ledger = new ArrayList<>();
    }

    private RdpAccountant(RdpAccountant other) {
        this.relation = other.relation;
        this.orders = other.orders;
        this.rdp = other.rdp.clone();
        this.ledger = new ArrayList<>(other.ledger);
    }

    /**
     * The default orders: every integer from 2 to 256, the real orders {@code 1.05, 1.10, ..., 1.95}
     * (which include 1.25, 1.5, 1.75), quarter orders up to 12 and half orders up to 32. Large
     * budgets are optimal at small orders and small budgets at large ones.
     */
    public static double[] defaultOrders() {
        TreeSet<Double> set = new TreeSet<>();
        for (int k = 1; k < 20; k++) {
            set.add(1.0 + k / 20.0);
        }
        for (double a = 2.0; a < 12.0; a += 0.25) {
            set.add(a);
        }
        for (double a = 12.0; a < 32.0; a += 0.5) {
            set.add(a);
        }
        for (int a = 2; a <= 256; a++) {
            set.add((double) a);
        }
        return set.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double[] validatedOrders(double[] orders) {
        Objects.requireNonNull(orders, "RDP orders must not be null");
        if (orders.length == 0) {
            throw new IllegalArgumentException("RDP orders must not be empty; use RdpAccountant.defaultOrders()");
        }
        for (int i = 0; i < orders.length; i++) {
            if (!(orders[i] > 1.0) || Double.isInfinite(orders[i])) {
                throw new IllegalArgumentException("RDP order at index " + i + " must be a finite number > 1, got "
                        + orders[i]);
            }
        }
        return Arrays.stream(orders).sorted().distinct().toArray();
    }

    @Override
    public NeighbouringRelation relation() {
        return relation;
    }

    /** The orders of the curve (a copy, ascending). */
    public double[] orders() {
        return orders.clone();
    }

    /** The composed RDP curve, one value per {@link #orders()} entry (a copy). */
    public double[] rdp() {
        return rdp.clone();
    }

    /**
     * The RDP curve of one event on this accountant's orders and relation, without composing it.
     *
     * @throws UnsupportedEventException if the event is not supported
     */
    public double[] curve(DpEvent event) {
        requireSupported(event);
        double[] out = new double[orders.length];
        addCurve(event, 1L, out);
        return out;
    }

    /** The event's RDP curve ({@link #curve(DpEvent)}): the cost that composition adds order by order. */
    @Override
    public double[] cost(DpEvent event) {
        return curve(event);
    }

    /** The guarantee of a summed curve, {@code epsilonBound(totalCost, 1, delta, conversion)}. */
    @Override
    public EpsilonBound epsilonBound(double[] totalCost, double delta, Conversion conversion) {
        return epsilonBound(totalCost, 1L, delta, conversion);
    }

    @Override
    public boolean supports(DpEvent event) {
        return EventTree.refusal(event, this::leafRefusal) == null;
    }

    @Override
    public RdpAccountant compose(DpEvent event) {
        requireSupported(event);
        double[] increment = new double[orders.length];
        addCurve(event, 1L, increment);
        for (int i = 0; i < rdp.length; i++) {
            rdp[i] += increment[i];
        }
        ledger.add(event);
        return this;
    }

    @Override
    public RdpAccountant compose(DpEvent event, long count) {
        return compose(new SelfComposedEvent(event, count));
    }

    @Override
    public EpsilonBound epsilonBound(double delta, Conversion conversion) {
        return epsilonBound(rdp, 1L, delta, conversion);
    }

    /**
     * The guarantee of {@code count} compositions of a curve on this accountant's orders (for example a
     * training step's {@link #curve(DpEvent)}), without touching the ledger: lets a training loop report
     * epsilon after every step without recomputing the step's curve.
     */
    public EpsilonBound epsilonBound(double[] curve, long count, double delta, Conversion conversion) {
        ZCdp.requireDelta(delta);
        Objects.requireNonNull(conversion, "conversion must not be null");
        if (curve.length != orders.length) {
            throw new IllegalArgumentException("curve has " + curve.length + " values but the accountant has "
                    + orders.length + " orders");
        }
        if (count < 0) {
            throw new IllegalArgumentException("composition count must be >= 0, got " + count);
        }
        double best = Double.POSITIVE_INFINITY;
        double bestOrder = Double.NaN;
        for (int i = 0; i < orders.length; i++) {
            double total = count == 0 ? 0.0 : count * curve[i];
            if (total == 0.0) {
                // D_alpha = 0 at one order means identical output distributions: (0, 0)-DP.
                return new EpsilonBound(0.0, delta, orders[i], conversion, NAME);
            }
            double eps = conversion.epsilon(orders[i], total, delta);
            if (eps < best) {
                best = eps;
                bestOrder = orders[i];
            }
        }
        return new EpsilonBound(Math.max(0.0, best), delta, bestOrder, conversion, NAME);
    }

    @Override
    public double delta(double epsilon, Conversion conversion) {
        if (!(epsilon >= 0)) {
            throw new IllegalArgumentException("epsilon must be >= 0, got " + epsilon);
        }
        Objects.requireNonNull(conversion, "conversion must not be null");
        double bestLog = 0.0; // delta = 1 always holds
        for (int i = 0; i < orders.length; i++) {
            if (rdp[i] == 0.0) {
                return 0.0;
            }
            bestLog = Math.min(bestLog, conversion.logDelta(orders[i], rdp[i], epsilon));
        }
        return Math.exp(bestLog);
    }

    @Override
    public List<DpEvent> ledger() {
        return List.copyOf(ledger);
    }

    @Override
    public RdpAccountant copy() {
        return new RdpAccountant(this);
    }

    @Override
    public String toString() {
        return "RdpAccountant(" + relation + ", " + orders.length + " orders, " + ledger.size() + " ledger entries)";
    }

    private void requireSupported(DpEvent event) {
        Objects.requireNonNull(event, "event must not be null");
        String reason = EventTree.refusal(event, this::leafRefusal);
        if (reason != null) {
            throw new UnsupportedEventException("RdpAccountant(" + relation + ")", event, reason, SUPPORTED);
        }
    }

    /** Why a leaf event cannot be analysed, or null if it can. */
    private String leafRefusal(DpEvent event) {
        if (event instanceof RepeatAndSelectEvent tuning) {
            String inner = EventTree.refusal(tuning.candidate(), this::leafRefusal);
            return inner == null ? null : "its candidate is refused: " + inner;
        }
        if (event instanceof EnvelopeEvent envelope) {
            for (DpEvent e : envelope.events()) {
                String inner = EventTree.refusal(e, this::leafRefusal);
                if (inner != null) {
                    return "its option " + e + " is refused: " + inner;
                }
            }
            return null;
        }
        if (event instanceof GaussianEvent || event instanceof CorrelatedGaussianEvent || event instanceof LaplaceEvent
                || event instanceof ZCdpEvent || event instanceof NoOpEvent || event instanceof NonPrivateEvent) {
            return null;
        }
        if (event instanceof PoissonSampledEvent poisson) {
            if (relation != NeighbouringRelation.ADD_OR_REMOVE_ONE) {
                return "Poisson sampling is analysed under ADD_OR_REMOVE_ONE only (under REPLACE_ONE the sample"
                        + " size itself leaks); use an ADD_OR_REMOVE_ONE accountant, or describe fixed-size batches"
                        + " with SampledWithoutReplacementEvent";
            }
            return gaussianInside(poisson.event(), "Poisson sampling");
        }
        if (event instanceof SampledWithoutReplacementEvent wor) {
            if (relation != NeighbouringRelation.REPLACE_ONE) {
                return "sampling without replacement is analysed under REPLACE_ONE only (the dataset size must be"
                        + " fixed); use a REPLACE_ONE accountant, or Poisson sampling under ADD_OR_REMOVE_ONE";
            }
            return gaussianInside(wor.event(), "sampling without replacement");
        }
        return "unknown event type " + event.getClass().getName();
    }

    private static String gaussianInside(DpEvent inner, String scheme) {
        if (inner instanceof GaussianEvent || inner instanceof CorrelatedGaussianEvent) {
            return null;
        }
        if (inner instanceof PoissonSampledEvent || inner instanceof SampledWithoutReplacementEvent) {
            return "nested sampling (" + scheme + " of an already sampled event) has no amplification analysis here";
        }
        return "amplification by " + scheme + " is implemented for a single GaussianEvent or CorrelatedGaussianEvent"
                + " only, not for " + inner.getClass().getSimpleName() + "; compose the sampled steps outside the sample";
    }

    /** Adds {@code multiplicity} times the event's curve into {@code out}. The event is supported. */
    private void addCurve(DpEvent event, long multiplicity, double[] out) {
        EventTree.forEachLeaf(event, multiplicity, (leaf, count) -> {
            if (leaf instanceof RepeatAndSelectEvent tuning) {
                // the tuning bound transforms the candidate's whole curve (it minimises over a second order)
                double[] candidate = new double[orders.length];
                addCurve(tuning.candidate(), 1, candidate);
                double[] selected = tuning.curve(orders, candidate);
                for (int i = 0; i < orders.length; i++) {
                    if (selected[i] != 0.0) {
                        out[i] += count * selected[i];
                    }
                }
                return;
            }
            if (leaf instanceof EnvelopeEvent envelope) {
                double[] worst = new double[orders.length];
                for (DpEvent e : envelope.events()) {
                    double[] curve = new double[orders.length];
                    addCurve(e, 1, curve);
                    for (int i = 0; i < orders.length; i++) {
                        worst[i] = Math.max(worst[i], curve[i]);
                    }
                }
                for (int i = 0; i < orders.length; i++) {
                    if (worst[i] != 0.0) {
                        out[i] += count * worst[i];
                    }
                }
                return;
            }
            for (int i = 0; i < orders.length; i++) {
                double value = singleRdp(leaf, orders[i]);
                if (value != 0.0) { // 0 * inf would be NaN; a zero term adds nothing anyway
                    out[i] += count * value;
                }
            }
        });
    }

    /** RDP at one order of a supported leaf event. */
    private double singleRdp(DpEvent event, double alpha) {
        boolean replace = relation == NeighbouringRelation.REPLACE_ONE;
        if (event instanceof NoOpEvent) {
            return 0.0;
        }
        if (event instanceof NonPrivateEvent) {
            return Double.POSITIVE_INFINITY;
        }
        if (event instanceof CorrelatedGaussianEvent correlated) {
            return singleRdp(correlated.toGaussian(), alpha);
        }
        if (event instanceof GaussianEvent gaussian) {
            return gaussianRdp(gaussian.noiseMultiplier(), alpha);
        }
        if (event instanceof LaplaceEvent laplace) {
            return LaplaceRdp.rdp(replace ? laplace.noiseMultiplier() / 2.0 : laplace.noiseMultiplier(), alpha);
        }
        if (event instanceof ZCdpEvent zcdp) {
            return zcdp.rho() == 0.0 ? 0.0 : alpha * zcdp.rho();
        }
        if (event instanceof PoissonSampledEvent poisson) {
            return SampledGaussianRdp.rdp(poisson.samplingProbability(), innerMultiplier(poisson.event()), alpha);
        }
        if (event instanceof SampledWithoutReplacementEvent wor) {
            return WithoutReplacementGaussianRdp.rdp(wor.samplingRatio(), innerMultiplier(wor.event()), alpha);
        }
        throw new IllegalStateException("no RDP formula for " + event);
    }

    private double gaussianRdp(double z, double alpha) {
        if (z == Double.POSITIVE_INFINITY) {
            return 0.0;
        }
        double sensitivityFactor = relation == NeighbouringRelation.REPLACE_ONE ? 4.0 : 1.0;
        return sensitivityFactor * alpha / (2.0 * z * z);
    }

    private static double innerMultiplier(DpEvent inner) {
        GaussianEvent g = inner instanceof CorrelatedGaussianEvent c ? c.toGaussian() : (GaussianEvent) inner;
        return g.noiseMultiplier();
    }
}
