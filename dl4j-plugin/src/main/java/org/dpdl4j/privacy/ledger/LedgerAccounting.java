package org.dpdl4j.privacy.ledger;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.DoubleFunction;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.AdditiveAccountant;
import org.dpdl4j.privacy.accounting.Calibration;
import org.dpdl4j.privacy.accounting.Calibrator;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.EpsilonBound;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.NoOpEvent;
import org.dpdl4j.privacy.accounting.PldAccountant;
import org.dpdl4j.privacy.accounting.PrivacyAccountant;
import org.dpdl4j.privacy.accounting.TightestAccountant;
import org.dpdl4j.privacy.accounting.ZCdp;

/**
 * The one place where events become epsilon, for every protocol: a ledger (or a plan of {@code count}
 * applications of one event) is priced by an accountant from the {@link AccountantFactory}, for the relation the
 * run's mechanism is analysed under. Applications to disjoint data compose in parallel: the run's epsilon is the
 * largest over the parties of the composition of the entries that touch that party (entries of
 * {@link LedgerEntry#ALL_PARTIES} touch every party).
 *
 * <p>With an {@link AdditiveAccountant} each distinct event is priced once and a ledger costs
 * {@code sum count * cost(event)}: epsilon after every step costs a few hundred additions, and a ledger of T
 * identical steps is priced exactly as T compositions of one step. With the default {@link TightestAccountant} its
 * additive candidates are priced that way, and the PLD accountant is asked for a party only where it can lower that
 * party's bound (not for a ledger the exact Gaussian curve prices), from a cache of recent ledgers. Other accountants
 * compose the entries afresh.
 */
public final class LedgerAccounting {
    private static final int CACHED_COSTS = 64;

    private final AccountantFactory factory;
    private final NeighbouringRelation relation;
    private final PrivacyAccountant pricing;
    /** The additive part of the pricing (the accountant itself, or the tightest accountant's), or null. */
    private final AdditiveAccountant additive;
    private final boolean refinesWithPld;
    private final Map<List<EventCount>, Optional<PldAccountant>> plds = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<List<EventCount>, Optional<PldAccountant>> eldest) {
            return size() > CACHED_COSTS;
        }
    };
    private final Map<DpEvent, double[]> costs = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<DpEvent, double[]> eldest) {
            return size() > CACHED_COSTS;
        }
    };

    /**
     * @param factory  the accountant of every price
     * @param relation the neighbouring relation the run's guarantee refers to
     */
    public LedgerAccounting(AccountantFactory factory, NeighbouringRelation relation) {
        this.factory = Objects.requireNonNull(factory, "accountant factory");
        this.relation = Objects.requireNonNull(relation, "neighbouring relation");
        this.pricing = Objects.requireNonNull(factory.create(relation), "the accountant factory returned null");
        if (pricing.relation() != relation) {
            throw new IllegalArgumentException("the accountant factory made an accountant for " + pricing.relation()
                    + " when asked for " + relation);
        }
        this.refinesWithPld = pricing instanceof TightestAccountant;
        this.additive = pricing instanceof TightestAccountant t ? t.additive()
                : pricing instanceof AdditiveAccountant a ? a : null;
    }

    /** One entry's contribution to a party's ledger: its event and how often. */
    private record EventCount(DpEvent event, long count) {
    }

    /** Accounting with {@link AccountantFactory#standard()}. */
    public static LedgerAccounting standard(NeighbouringRelation relation) {
        return new LedgerAccounting(AccountantFactory.standard(), relation);
    }

    public NeighbouringRelation relation() {
        return relation;
    }

    public AccountantFactory factory() {
        return factory;
    }

    /**
     * Refuses, before anything is spent, an event the accountant cannot analyse.
     *
     * @throws org.dpdl4j.privacy.accounting.UnsupportedEventException naming the event and the reason
     */
    public void requireSupported(DpEvent event) {
        factory.create(relation).compose(event);
    }

    /** The guarantee of the whole ledger: the largest over the parties. */
    public EpsilonBound bound(PrivacyLedger ledger, double delta, Conversion conversion) {
        return worstParty(ledger, delta, conversion).bound();
    }

    /**
     * The party whose guarantee is the weakest, with that guarantee ({@link LedgerEntry#ALL_PARTIES} when no entry
     * names a party).
     */
    public PartyBound worstParty(PrivacyLedger ledger, double delta, Conversion conversion) {
        List<Integer> parties = ledger.parties();
        if (parties.isEmpty()) {
            return new PartyBound(LedgerEntry.ALL_PARTIES, boundOf(ledger.entries(), delta, conversion));
        }
        PartyBound worst = null;
        for (int p : parties) {
            EpsilonBound b = boundOf(ledger.entriesOf(p), delta, conversion);
            if (worst == null || b.epsilon() > worst.bound().epsilon()) {
                worst = new PartyBound(p, b);
            }
        }
        return worst;
    }

    /** The guarantee of one party's ledger ({@link LedgerEntry#ALL_PARTIES}: the entries that touch every party). */
    public EpsilonBound boundOfParty(PrivacyLedger ledger, int party, double delta, Conversion conversion) {
        return boundOf(ledger.entriesOf(party), delta, conversion);
    }

    /**
     * The name of how ledgers are priced ({@link PrivacyAccountant#pricing()}, e.g. {@value AccountantFactory#TIGHTEST}
     * or {@value AccountantFactory#RDP}): recorded with saved ledgers, so that a resumed run is priced as it started.
     */
    public String method() {
        return pricing.pricing();
    }

    /**
     * Whether unsampled Gaussian ledgers are priced by their exact curve (the default and the additive pricing), so that
     * a calibration may invert that curve; otherwise (Renyi DP) zCDP's closed form is the one that inverts the price.
     */
    public boolean pricesGaussiansExactly() {
        return method().equals(AccountantFactory.TIGHTEST) || method().equals(AccountantFactory.ADDITIVE);
    }

    /**
     * The largest {@code mu^2} a ledger of unsampled Gaussian releases may hold and stay within (epsilon, delta) as this
     * accounting prices it, in closed form: releases of sensitivity over noise std {@code mu_i} compose to one Gaussian
     * of {@code mu^2 = sum mu_i^2}, which the exact curve prices where {@link #pricesGaussiansExactly()} (its
     * {@code mu(epsilon, delta)^2}, {@link GaussianPrivacyCurve#mu}), and Renyi DP at zCDP's {@code 2 rho(epsilon, delta)}
     * otherwise. A calibration divides it among its releases and moves the noise to the safe side of rounding
     * ({@link #safeSide}): inverting zCDP where the ledger is priced by the exact curve would leave the run well below its
     * target (about 0.74 for a target of 1 at delta 1e-5), with more noise than it needs.
     *
     * @throws IllegalArgumentException if epsilon is not positive and finite, or delta is outside (0, 1)
     */
    public double gaussianMuSquared(double epsilon, double delta) {
        double rho = ZCdp.rho(epsilon, delta); // refuses a target no noise meets, whichever curve inverts it
        if (!pricesGaussiansExactly()) {
            return 2 * rho;
        }
        double mu = GaussianPrivacyCurve.mu(epsilon, delta);
        return mu * mu;
    }

    /** A running tally of a ledger, when the accountant is (or has) an additive part (else null: price whole ledgers). */
    LedgerTally newTally() {
        return additive != null ? new LedgerTally(this, additive) : null;
    }

    /** The length of a cost vector of the additive part. */
    int costLength() {
        return additive.cost(new NoOpEvent()).length;
    }

    /**
     * The final bound of a party's entries from the bound of the additive part: that bound itself, or the PLD's when it
     * is smaller (default accounting only; never asked when the additive bound is the exact Gaussian one).
     */
    EpsilonBound refine(List<LedgerEntry> entries, EpsilonBound additiveBound, double delta, Conversion conversion) {
        if (!refinesWithPld || additiveBound.epsilon() == 0.0) {
            return additiveBound;
        }
        return TightestAccountant.tightest(additiveBound, pldOf(entries).orElse(null), delta, conversion);
    }

    /** Whether {@link #refine} may lower bounds (the PLD takes part), so that a cheaper additive check can come first. */
    boolean refines() {
        return refinesWithPld;
    }

    /** The PLD accountant holding the entries, or empty when it refuses one of them; cached by events and counts. */
    private Optional<PldAccountant> pldOf(List<LedgerEntry> entries) {
        List<EventCount> key = entries.stream().map(e -> new EventCount(e.event(), e.count())).toList();
        synchronized (plds) {
            Optional<PldAccountant> cached = plds.get(key);
            if (cached != null) {
                return cached;
            }
        }
        PldAccountant pld = new PldAccountant(relation);
        Optional<PldAccountant> made = Optional.of(pld);
        for (EventCount e : key) {
            if (!pld.supports(e.event())) {
                made = Optional.empty();
                break;
            }
            pld.compose(e.event(), e.count());
        }
        synchronized (plds) {
            plds.put(key, made);
        }
        return made;
    }

    /** The guarantee of {@code count} applications of one event (a plan, for calibration and planning). */
    public EpsilonBound planned(DpEvent event, long count, double delta, Conversion conversion) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, got " + count);
        }
        if (count == 0) {
            return boundOf(List.of(), delta, conversion);
        }
        return boundOf(List.of(new LedgerEntry(event, count, LedgerEntry.ALL_PARTIES, "plan", true, 0)), delta, conversion);
    }

    /** Epsilon (standard conversion) of {@code count} applications of one event. */
    public double plannedEpsilon(DpEvent event, long count, double delta) {
        return planned(event, count, delta, Conversion.STANDARD).epsilon();
    }

    /**
     * The smallest noise parameter s such that {@code count} applications of {@code eventOfNoise(s)} stay within
     * {@code targetEpsilon} at {@code delta} (generic bracket and bisection, {@link Calibrator}).
     */
    public Calibration calibrate(DoubleFunction<DpEvent> eventOfNoise, long count, double delta, double targetEpsilon) {
        Objects.requireNonNull(eventOfNoise, "noise-to-event function");
        return Calibrator.calibrate(s -> uncachedPlan(eventOfNoise.apply(s), count, delta), targetEpsilon);
    }

    /**
     * A noise parameter found in closed form, checked against this accounting's own price of {@code count} applications
     * of {@code eventOfNoise(noise)} (the bits a ledger holding them reports) and moved to its safe side
     * ({@link Calibrator#safeSide}).
     */
    public Calibration safeSide(double noise, DoubleFunction<DpEvent> eventOfNoise, long count, double delta, double targetEpsilon) {
        Objects.requireNonNull(eventOfNoise, "noise-to-event function");
        return Calibrator.safeSide(noise, s -> uncachedPlan(eventOfNoise.apply(s), count, delta), targetEpsilon);
    }

    private double uncachedPlan(DpEvent event, long count, double delta) {
        if (additive != null) {
            double[] cost = additive.cost(event);
            double[] total = new double[cost.length];
            for (int i = 0; i < cost.length; i++) {
                if (cost[i] != 0.0) {
                    total[i] += count * cost[i];
                }
            }
            EpsilonBound cheap = additive.epsilonBound(total, delta, Conversion.STANDARD);
            if (!refinesWithPld || cheap.epsilon() == 0.0) {
                return cheap.epsilon();
            }
            PldAccountant pld = new PldAccountant(relation);
            return pld.supports(event) ? TightestAccountant.tightest(cheap, pld.compose(event, count), delta, Conversion.STANDARD).epsilon()
                    : cheap.epsilon();
        }
        return factory.create(relation).compose(event, count).epsilonBound(delta, Conversion.STANDARD).epsilon();
    }

    /** The guarantee of a list of entries composed together. */
    EpsilonBound boundOf(List<LedgerEntry> entries, double delta, Conversion conversion) {
        if (additive != null) {
            return refine(entries, additive.epsilonBound(additiveTotal(entries), delta, conversion), delta, conversion);
        }
        PrivacyAccountant accountant = factory.create(relation);
        for (LedgerEntry e : entries) {
            accountant.compose(e.event(), e.count());
        }
        return accountant.epsilonBound(delta, conversion);
    }

    /**
     * Every accountant's bound for a list of entries, by accountant name: the additive candidates that accept every
     * entry and, with the default accounting, the PLD when it does; a single entry otherwise (the accountant's own).
     */
    public java.util.Map<String, EpsilonBound> everyBound(List<LedgerEntry> entries, double delta, Conversion conversion) {
        java.util.Map<String, EpsilonBound> out = new LinkedHashMap<>();
        if (additive instanceof org.dpdl4j.privacy.accounting.TightestAdditiveAccountant t) {
            out.putAll(t.bounds(additiveTotal(entries), delta, conversion));
            if (refinesWithPld) {
                pldOf(entries).ifPresent(p -> out.put(PldAccountant.NAME, p.epsilonBound(delta, conversion)));
            }
            return out;
        }
        EpsilonBound only = boundOf(entries, delta, conversion);
        out.put(only.accountant(), only);
        return out;
    }

    /** Every accountant's bound for the weakest party of a ledger (see {@link #everyBound(List, double, Conversion)}). */
    public java.util.Map<String, EpsilonBound> everyBound(PrivacyLedger ledger, double delta, Conversion conversion) {
        return everyBound(ledger.entriesOf(worstParty(ledger, delta, conversion).party()), delta, conversion);
    }

    private double[] additiveTotal(List<LedgerEntry> entries) {
        double[] total = new double[costLength()];
        for (LedgerEntry e : entries) {
            double[] cost = cost(additive, e.event());
            for (int i = 0; i < cost.length; i++) {
                if (cost[i] != 0.0) { // 0 * inf would be NaN
                    total[i] += e.count() * cost[i];
                }
            }
        }
        return total;
    }

    /** The cost of one application of an event (cached; the array must not be modified). */
    double[] cost(AdditiveAccountant additive, DpEvent event) {
        synchronized (costs) {
            double[] cost = costs.get(event);
            if (cost == null) {
                cost = additive.cost(event);
                costs.put(event, cost);
            }
            return cost;
        }
    }

    /**
     * A party and its guarantee.
     *
     * @param party the party, or {@link LedgerEntry#ALL_PARTIES}
     * @param bound its guarantee
     */
    public record PartyBound(int party, EpsilonBound bound) {
    }
}
