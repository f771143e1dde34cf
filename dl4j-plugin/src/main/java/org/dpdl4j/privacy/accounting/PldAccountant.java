package org.dpdl4j.privacy.accounting;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.dpdl4j.privacy.accounting.pld.ConnectTheDots;
import org.dpdl4j.privacy.accounting.pld.DiscretePld;
import org.dpdl4j.privacy.accounting.pld.LaplaceLossPair;
import org.dpdl4j.privacy.accounting.pld.PldComposition;
import org.dpdl4j.privacy.accounting.pld.PrivacyLossPair;
import org.dpdl4j.privacy.accounting.pld.SampledGaussianLossPair;
import org.dpdl4j.privacy.accounting.pld.SampledGaussianLossPair.Direction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Privacy-loss-distribution accountant (Koskela et al. 2020; Google's dp_accounting): every release is described by a
 * pair of output distributions that dominates it, the distribution of its privacy loss is discretised pessimistically
 * ({@link ConnectTheDots}), the ledger's distributions are convolved by FFT ({@link PldComposition}), and epsilon is
 * read off the composed distribution's hockey-stick divergence. Unlike Renyi DP it loses nothing in a conversion, so
 * for DP-SGD it reports a smaller epsilon for the same noise; every number it returns is still an upper bound, never
 * below the true value: the discretisation and the composition only ever overstate the loss, the tails cut from each
 * release and from the composition are added to delta, and so is a bound on the FFT's rounding.
 *
 * <p>Under {@link NeighbouringRelation#ADD_OR_REMOVE_ONE} the two directions (the unit in the first dataset or in the
 * second) have different loss distributions for a sampled release; both compositions are formed and the worse one
 * reported. Under {@link NeighbouringRelation#REPLACE_ONE} the releases priced here are symmetric and one suffices.
 *
 * <p>Supported (C the contribution bound, z the noise multiplier, see {@link DpEvent}): {@link GaussianEvent} (the
 * Gaussian pair with {@code mu = 1/z}, or {@code 2/z} under replace-one), {@link CorrelatedGaussianEvent} (reduced to its
 * Gaussian, see {@link ExactGaussianAccountant}), {@link LaplaceEvent} (pure epsilon {@code 1/z} or {@code 2/z}), a
 * {@link PoissonSampledEvent} of a (correlated) Gaussian under add/remove, {@link NoOpEvent}, {@link NonPrivateEvent},
 * self-composition and composition. Refused: sampling without replacement, Poisson sampling under replace-one, zCDP
 * statements, tuning and envelopes (the RDP accountant prices those).
 *
 * <p>Grid: the interval is at most 1e-3 and small against the releases' loss scales (their loss's standard deviation,
 * or its order; s/20 for a ledger of one kind of release), at least
 * {@link #MIN_INTERVAL}, doubled while a release or the composition would need more than
 * {@link PldComposition#MAX_POINTS} points; or fixed by the caller. At that interval the bound is within a few parts
 * in ten thousand of the value at ten times finer grids on the cases of its tests.
 */
public final class PldAccountant implements PrivacyAccountant {
    /** The accountant's name in bounds and reports. */
    public static final String NAME = "pld";
    /** The largest grid interval the adaptive choice takes. */
    public static final double MAX_INTERVAL = 1e-3;
    /**
     * The smallest: a release whose loss is far finer than this costs almost nothing, and spreading its mass over a grid
     * this coarse adds only about {@code interval * E|L|} to the variance of the composed loss, per release.
     */
    public static final double MIN_INTERVAL = 1e-7;
    /** The share of the composed loss's variance the grid may add (see adaptiveInterval). */
    public static final double SPREAD_SHARE = 0.05;
    /** P-mass each unbounded noise tail of one release may leave its grid with (added to delta when it is the upper one). */
    public static final double RELEASE_TAIL = 1e-20;
    /** The largest sensitivity-to-noise ratio priced as a Gaussian; above it a release counts as non-private. */
    public static final double MAX_MU = 1e3;
    /** Mass the composition's FFT window may leave out (added to delta). */
    public static final double WINDOW_TAIL = 1e-15;

    private static final Logger LOG = LoggerFactory.getLogger(PldAccountant.class);
    private static final String SUPPORTED = "Gaussian, CorrelatedGaussian and Laplace events, Poisson-sampled (Correlated)Gaussian"
            + " under ADD_OR_REMOVE_ONE, NoOp and NonPrivate events, their self-composition and composition";
    private static final Map<LeafKey, DiscretePld> LEAVES = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<LeafKey, DiscretePld> eldest) {
            return size() > 64;
        }
    };

    private record LeafKey(PrivacyLossPair pair, double interval) {
    }

    private final NeighbouringRelation relation;
    private final double fixedInterval;
    private final List<DpEvent> ledger;
    private Priced priced;

    /** The composed distributions of the ledger, one per direction, on a grid of the given interval. */
    private record Priced(List<DiscretePld> directions, double interval) {
    }

    /** An accountant with the adaptive grid. */
    public PldAccountant(NeighbouringRelation relation) {
        this(relation, Double.NaN);
    }

    /**
     * @param relation the neighbouring relation of every guarantee
     * @param interval a fixed grid interval, positive; NaN for the adaptive choice
     */
    public PldAccountant(NeighbouringRelation relation, double interval) {
        this.relation = Objects.requireNonNull(relation, "neighbouring relation must not be null");
        if (!Double.isNaN(interval) && (!(interval > 0) || Double.isInfinite(interval))) {
            throw new IllegalArgumentException("the PLD grid interval must be positive and finite (or NaN for the adaptive"
                    + " choice), got " + interval);
        }
        this.fixedInterval = interval;
        this.ledger = new ArrayList<>();
    }

    private PldAccountant(PldAccountant other) {
        this.relation = other.relation;
        this.fixedInterval = other.fixedInterval;
        this.ledger = new ArrayList<>(other.ledger);
        this.priced = other.priced;
    }

    @Override
    public NeighbouringRelation relation() {
        return relation;
    }

    @Override
    public boolean supports(DpEvent event) {
        return EventTree.refusal(event, this::leafRefusal) == null;
    }

    @Override
    public PldAccountant compose(DpEvent event) {
        Objects.requireNonNull(event, "event must not be null");
        String reason = EventTree.refusal(event, this::leafRefusal);
        if (reason != null) {
            throw new UnsupportedEventException("PldAccountant(" + relation + ")", event, reason, SUPPORTED);
        }
        ledger.add(event);
        priced = null;
        return this;
    }

    @Override
    public PldAccountant compose(DpEvent event, long count) {
        return compose(new SelfComposedEvent(event, count));
    }

    /** Epsilon at delta (the worse direction); the conversion is not used (there is no Renyi step to convert). */
    @Override
    public EpsilonBound epsilonBound(double delta, Conversion conversion) {
        ZCdp.requireDelta(delta);
        Objects.requireNonNull(conversion, "conversion must not be null");
        double eps = 0;
        for (DiscretePld d : priced().directions()) {
            eps = Math.max(eps, d.epsilon(delta));
        }
        return new EpsilonBound(eps, delta, Double.NaN, conversion, NAME);
    }

    @Override
    public double delta(double epsilon, Conversion conversion) {
        if (!(epsilon >= 0)) {
            throw new IllegalArgumentException("epsilon must be >= 0, got " + epsilon);
        }
        double d = 0;
        for (DiscretePld p : priced().directions()) {
            d = Math.max(d, p.delta(epsilon));
        }
        return d;
    }

    /** The grid interval of the current ledger's pricing. */
    public double interval() {
        return priced().interval();
    }

    @Override
    public List<DpEvent> ledger() {
        return List.copyOf(ledger);
    }

    @Override
    public PldAccountant copy() {
        return new PldAccountant(this);
    }

    @Override
    public String toString() {
        return "PldAccountant(" + relation + ", " + (Double.isNaN(fixedInterval) ? "adaptive grid" : "grid " + fixedInterval)
                + ", " + ledger.size() + " ledger entries)";
    }

    // ---------------------------------------------------------------------------------------------------- pricing

    /** A release as loss pairs, one per direction; null pairs mean no loss at all. */
    private record Release(PrivacyLossPair remove, PrivacyLossPair add, boolean nonPrivate) {
        static final Release NONE = new Release(null, null, false);
        static final Release NON_PRIVATE = new Release(null, null, true);

        static Release symmetric(PrivacyLossPair pair) {
            return new Release(pair, pair, false);
        }
    }

    private Priced priced() {
        if (priced == null) {
            priced = price();
        }
        return priced;
    }

    private Priced price() {
        long t0 = System.nanoTime();
        Map<Release, Long> releases = new LinkedHashMap<>();
        for (DpEvent e : ledger) {
            EventTree.forEachLeaf(e, 1L, (leaf, count) -> releases.merge(release(leaf), count, Math::addExact));
        }
        releases.remove(Release.NONE);
        double interval = Double.isNaN(fixedInterval) ? adaptiveInterval(releases) : fixedInterval;
        if (releases.containsKey(Release.NON_PRIVATE)) {
            return new Priced(List.of(DiscretePld.nonPrivate(interval)), interval);
        }
        if (releases.isEmpty()) {
            return new Priced(List.of(new DiscretePld(interval, 0, new double[] {1.0}, 0.0)), interval);
        }
        List<Direction> directions = relation == NeighbouringRelation.ADD_OR_REMOVE_ONE
                ? List.of(Direction.REMOVE, Direction.ADD) : List.of(Direction.REMOVE);
        while (true) {
            double span = 0;
            for (Release r : releases.keySet()) {
                for (PrivacyLossPair p : new PrivacyLossPair[] {r.remove(), r.add()}) {
                    span = Math.max(span, ConnectTheDots.points(p, interval, RELEASE_TAIL));
                }
            }
            if (span > PldComposition.MAX_POINTS) {
                interval = coarser(interval, span);
                continue;
            }
            List<List<PldComposition.Part>> parts = new ArrayList<>();
            long widest = 0;
            for (Direction d : directions) {
                List<PldComposition.Part> list = new ArrayList<>();
                for (Map.Entry<Release, Long> r : releases.entrySet()) {
                    PrivacyLossPair pair = d == Direction.REMOVE ? r.getKey().remove() : r.getKey().add();
                    list.add(new PldComposition.Part(leaf(pair, interval), r.getValue()));
                }
                widest = Math.max(widest, PldComposition.points(list, WINDOW_TAIL));
                parts.add(list);
            }
            if (widest > PldComposition.MAX_POINTS) {
                interval = coarser(interval, widest);
                continue;
            }
            List<DiscretePld> composed = new ArrayList<>();
            for (List<PldComposition.Part> list : parts) {
                composed.add(PldComposition.compose(list, WINDOW_TAIL));
            }
            LOG.debug("PLD of {} distinct releases priced on a grid of {} in {} ms", releases.size(), interval,
                    (System.nanoTime() - t0) / 1_000_000);
            return new Priced(List.copyOf(composed), interval);
        }
    }

    /** Twice the interval (a coarser grid is looser, never invalid); refused for a fixed interval. */
    private double coarser(double interval, double points) {
        if (!Double.isNaN(fixedInterval)) {
            throw new IllegalArgumentException("this ledger needs " + points + " grid points at the fixed interval " + fixedInterval
                    + ", more than " + PldComposition.MAX_POINTS + "; use a coarser interval or the adaptive one");
        }
        return 2 * interval;
    }

    /**
     * {@code min(1e-3, 0.05 V / sum_r k_r s_r)}, with {@code V = sum_r k_r s_r^2} the composed loss's variance (to its
     * order), s_r release r's loss scale and k_r its count: spreading a release's mass over a grid of interval h adds
     * about {@code h s_r} to the variance of its loss, so this keeps the added variance near 5% of the composition's
     * (for one release it is s/20). Releases whose loss is negligible do not force a fine grid. Rounded down to a power of
     * 2^(1/4), so that a ledger that grows by releases of the same kinds keeps its grid (and its cached discretisations).
     */
    private static double adaptiveInterval(Map<Release, Long> releases) {
        double variance = 0;
        double spread = 0;
        for (Map.Entry<Release, Long> r : releases.entrySet()) {
            PrivacyLossPair p = r.getKey().remove() != null ? r.getKey().remove() : r.getKey().add();
            if (p != null) {
                double s = p.lossScale();
                variance += r.getValue() * s * s;
                spread += r.getValue() * s;
            }
        }
        double interval = spread > 0 ? Math.min(MAX_INTERVAL, SPREAD_SHARE * variance / spread) : MAX_INTERVAL;
        double quarterOctaves = Math.floor(4 * Math.log(Math.max(MIN_INTERVAL, interval)) / Math.log(2));
        return Math.pow(2, quarterOctaves / 4);
    }

    private static DiscretePld leaf(PrivacyLossPair pair, double interval) {
        LeafKey key = new LeafKey(pair, interval);
        synchronized (LEAVES) {
            DiscretePld cached = LEAVES.get(key);
            if (cached != null) {
                return cached;
            }
        }
        DiscretePld d = ConnectTheDots.discretise(pair, interval, RELEASE_TAIL);
        synchronized (LEAVES) {
            LEAVES.put(key, d);
        }
        return d;
    }

    /** The loss pairs of a supported leaf. */
    private Release release(DpEvent leaf) {
        double sensitivity = relation == NeighbouringRelation.REPLACE_ONE ? 2.0 : 1.0;
        if (leaf instanceof NoOpEvent) {
            return Release.NONE;
        }
        if (leaf instanceof NonPrivateEvent) {
            return Release.NON_PRIVATE;
        }
        if (leaf instanceof CorrelatedGaussianEvent c) {
            return release(c.toGaussian());
        }
        if (leaf instanceof GaussianEvent g) {
            return gaussian(sensitivity, g.noiseMultiplier(), 1.0);
        }
        if (leaf instanceof LaplaceEvent l) {
            double z = l.noiseMultiplier();
            return z == Double.POSITIVE_INFINITY ? Release.NONE : z == 0 ? Release.NON_PRIVATE
                    : Release.symmetric(new LaplaceLossPair(sensitivity / z));
        }
        if (leaf instanceof PoissonSampledEvent p) {
            GaussianEvent g = p.event() instanceof CorrelatedGaussianEvent c ? c.toGaussian() : (GaussianEvent) p.event();
            return p.samplingProbability() == 0 ? Release.NONE : gaussian(sensitivity, g.noiseMultiplier(), p.samplingProbability());
        }
        throw new IllegalStateException("no loss pair for " + leaf);
    }

    private static Release gaussian(double sensitivity, double z, double rate) {
        if (z == Double.POSITIVE_INFINITY) {
            return Release.NONE;
        }
        if (z == 0) {
            return Release.NON_PRIVATE;
        }
        double mu = sensitivity / z;
        if (mu > MAX_MU) {
            // Such a release is not private in any useful sense (its loss reaches mu^2/2 > 5e5), and the loss pair's
            // arithmetic loses its meaning as mu^2 overflows: count it as non-private, a valid if loose bound.
            return Release.NON_PRIVATE;
        }
        if (rate == 1.0) {
            return Release.symmetric(SampledGaussianLossPair.gaussian(mu));
        }
        return new Release(new SampledGaussianLossPair(rate, mu, Direction.REMOVE),
                new SampledGaussianLossPair(rate, mu, Direction.ADD), false);
    }

    private String leafRefusal(DpEvent event) {
        if (event instanceof GaussianEvent || event instanceof CorrelatedGaussianEvent || event instanceof LaplaceEvent
                || event instanceof NoOpEvent || event instanceof NonPrivateEvent) {
            return null;
        }
        if (event instanceof PoissonSampledEvent p) {
            if (relation != NeighbouringRelation.ADD_OR_REMOVE_ONE) {
                return "Poisson sampling is analysed under ADD_OR_REMOVE_ONE only; use an ADD_OR_REMOVE_ONE accountant";
            }
            if (p.event() instanceof GaussianEvent || p.event() instanceof CorrelatedGaussianEvent) {
                return null;
            }
            return "the PLD of a Poisson sample is implemented for a single GaussianEvent or CorrelatedGaussianEvent only, not"
                    + " for " + p.event().getClass().getSimpleName();
        }
        if (event instanceof SampledWithoutReplacementEvent) {
            return "fixed-size sampling without replacement has no PLD analysis here; the RDP accountant prices it";
        }
        if (event instanceof ZCdpEvent) {
            return "a zCDP statement has no privacy loss distribution; the zCDP or RDP accountant prices it";
        }
        return event.getClass().getSimpleName() + " has no PLD analysis here; the RDP accountant prices it";
    }
}
