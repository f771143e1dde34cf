package org.dpdl4j.privacy.ledger;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.DoubleFunction;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.AdditiveAccountant;
import org.dpdl4j.privacy.accounting.Calibration;
import org.dpdl4j.privacy.accounting.Calibrator;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.EpsilonBound;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.NoOpEvent;
import org.dpdl4j.privacy.accounting.PrivacyAccountant;

/**
 * The one place where events become epsilon, for every protocol: a ledger (or a plan of {@code count}
 * applications of one event) is priced by an accountant from the {@link AccountantFactory}, for the relation the
 * run's mechanism is analysed under. Applications to disjoint data compose in parallel: the run's epsilon is the
 * largest over the parties of the composition of the entries that touch that party (entries of
 * {@link LedgerEntry#ALL_PARTIES} touch every party).
 *
 * <p>With an {@link AdditiveAccountant} (the default) each distinct event is priced once and a ledger costs
 * {@code sum count * cost(event)}: epsilon after every step costs a few hundred additions, and a ledger of T
 * identical steps is priced exactly as T compositions of one step. Other accountants compose the entries afresh.
 */
public final class LedgerAccounting {
    private static final int CACHED_COSTS = 64;

    private final AccountantFactory factory;
    private final NeighbouringRelation relation;
    private final PrivacyAccountant pricing;
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

    /** A running tally of a ledger, when the accountant is additive (else null: price whole ledgers). */
    LedgerTally newTally() {
        return pricing instanceof AdditiveAccountant additive ? new LedgerTally(this, additive) : null;
    }

    /** The length of a cost vector of the additive accountant. */
    int costLength() {
        return ((AdditiveAccountant) pricing).cost(new NoOpEvent()).length;
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
        if (pricing instanceof AdditiveAccountant additive) {
            double[] cost = additive.cost(event);
            double[] total = new double[cost.length];
            for (int i = 0; i < cost.length; i++) {
                total[i] += count * cost[i];
            }
            return additive.epsilonBound(total, delta, Conversion.STANDARD).epsilon();
        }
        return factory.create(relation).compose(event, count).epsilonBound(delta, Conversion.STANDARD).epsilon();
    }

    /** The guarantee of a list of entries composed together. */
    EpsilonBound boundOf(List<LedgerEntry> entries, double delta, Conversion conversion) {
        if (pricing instanceof AdditiveAccountant additive) {
            double[] total = null;
            for (LedgerEntry e : entries) {
                double[] cost = cost(additive, e.event());
                if (total == null) {
                    total = new double[cost.length];
                }
                for (int i = 0; i < cost.length; i++) {
                    total[i] += e.count() * cost[i];
                }
            }
            if (total == null) {
                total = new double[costLength()];
            }
            return additive.epsilonBound(total, delta, conversion);
        }
        PrivacyAccountant accountant = factory.create(relation);
        for (LedgerEntry e : entries) {
            accountant.compose(e.event(), e.count());
        }
        return accountant.epsilonBound(delta, conversion);
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
