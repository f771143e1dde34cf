package org.dpdl4j.privacy.ledger;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.EpsilonBound;

/**
 * The privacy ledger a run owns: every application of a private mechanism is recorded here as the step makes it,
 * priced by the run's {@link LedgerAccounting}, and checked against the run's {@link PrivacyBudget} before it is
 * made. Every epsilon the run reports (progress, metrics, statements, the Java API) is this ledger's. The ledger is
 * part of the run's checkpoint, so a resumed run continues the composition instead of starting a new one.
 * Not thread-safe: one run, one thread.
 */
public final class RunLedger {
    private final LedgerAccounting accounting;
    private final PrivacyBudget budget;
    private final boolean secureNoise;
    /** The running tally (additive accountants), or null: then every price composes the whole ledger. */
    private final LedgerTally tally;
    private PrivacyLedger ledger = new PrivacyLedger();
    /** A ledger containing the current one that is known to be within the budget (every smaller ledger is), or null. */
    private PrivacyLedger certified;
    private int segment;
    private EpsilonBound spent;
    /**
     * The worst party's guarantee before the parties in {@link #touched} were charged (null when unknown): the current
     * worst is the larger of it and theirs, as costs only grow and the other parties are unchanged.
     */
    private EpsilonBound earlierWorst;
    private final Set<Integer> touched = new HashSet<>();
    private final Set<DpEvent> checked = new HashSet<>();
    /** Why what the ledger prices is not a guarantee (null: it is one, up to the noise source's caveat). */
    private String notAGuarantee;

    /**
     * @param accounting  how the ledger is priced
     * @param budget      what the run may spend; an unlimited budget only fixes delta
     * @param secureNoise whether the run's noise comes from a secure source (recorded with every entry)
     */
    public RunLedger(LedgerAccounting accounting, PrivacyBudget budget, boolean secureNoise) {
        this.accounting = Objects.requireNonNull(accounting, "accounting");
        this.budget = Objects.requireNonNull(budget, "give the run a privacy budget (PrivacyBudget.unlimited(delta) for none)");
        this.secureNoise = secureNoise;
        this.tally = accounting.newTally();
    }

    /**
     * Records one application of {@code event} to every protected unit, after checking the budget.
     *
     * @param stepsDone steps completed before this one (for the message if the budget refuses it)
     * @throws PrivacyBudgetExceededException if the ledger would exceed the budget; nothing is recorded
     * @throws org.dpdl4j.privacy.accounting.UnsupportedEventException if the accountant cannot analyse the event
     */
    public void spend(long stepsDone, DpEvent event, String mechanism) {
        spend(stepsDone, List.of(Charge.ofAll(event, mechanism)));
    }

    /**
     * Records the applications of one step together: either all of them (the budget allows the step) or none.
     *
     * @throws PrivacyBudgetExceededException if the ledger would exceed the budget; nothing is recorded
     */
    public void spend(long stepsDone, List<Charge> charges) {
        if (charges.isEmpty()) {
            return;   // a step that releases nothing private
        }
        List<LedgerEntry> added = new ArrayList<>(charges.size());
        for (Charge c : charges) {
            if (!checked.contains(c.event())) {
                accounting.requireSupported(c.event());   // only a supported event is ever marked checked
                checked.add(c.event());
            }
            added.add(new LedgerEntry(c.event(), 1, c.party(), c.mechanism(), secureNoise, segment));
        }
        EpsilonBound previous = spent;   // the worst party's guarantee before the step, when known
        record(added);
        // What changed is noted before the budget check, which may price the worst party: with the earlier worst and
        // the charged parties (all of them, when one charge is everyone's). After a refusal the noted parties are
        // priced again from the restored ledger, which only costs time.
        if (previous != null) {
            earlierWorst = previous;
            touched.clear();
        }
        if (earlierWorst != null) {
            for (Charge c : charges) {
                if (c.party() == LedgerEntry.ALL_PARTIES) {
                    earlierWorst = null; // every party changed: price them all when asked
                    break;
                }
                touched.add(c.party());
            }
        }
        if (budget.isLimited() && !withinBudget(stepsDone, charges)) {
            EpsilonBound after = affectedBound(charges);
            undo(added);
            throw new PrivacyBudgetExceededException(stepsDone, spent().epsilon(), after.epsilon(), budget.epsilon(),
                    budget.delta());
        }
    }

    /**
     * Whether the ledger, the charges just recorded included, is within the budget. The exact check prices the charged
     * parties with the run's accounting; with the default accounting that may need privacy loss distributions, so
     * cheaper sufficient checks come first: the additive accountants' bound (an upper bound of the final one), then a
     * ledger certified earlier that contains this one (composition never lowers epsilon, so what holds for the larger
     * ledger holds here), then a look-ahead: the ledger after {@code max(1, stepsDone / 50)} more steps like this one,
     * which, when within the budget, certifies every step until then. Only the last steps before the budget runs out are
     * priced one by one.
     */
    private boolean withinBudget(long stepsDone, List<Charge> charges) {
        if (tally == null || !accounting.refines()) {
            return budget.allows(affectedBound(charges).epsilon());
        }
        if (budget.allows(additiveBound(charges).epsilon())) {
            return true;
        }
        if (certified != null && ledger.isCoveredBy(certified)) {
            return true;
        }
        long ahead = Math.max(1, stepsDone / 50);
        PrivacyLedger next = ledger.copy();
        for (Charge c : charges) {
            next.add(new LedgerEntry(c.event(), ahead, c.party(), c.mechanism(), secureNoise, segment));
        }
        if (budget.allows(accounting.bound(next, budget.delta(), Conversion.STANDARD).epsilon())) {
            certified = next;
            return true;
        }
        return budget.allows(affectedBound(charges).epsilon());
    }

    /** The additive part's bound for the parties the charges touch (every party when one charge touches all). */
    private EpsilonBound additiveBound(List<Charge> charges) {
        if (charges.stream().anyMatch(c -> c.party() == LedgerEntry.ALL_PARTIES)) {
            return tally.worst(budget.delta(), Conversion.STANDARD, false).bound();
        }
        EpsilonBound worst = null;
        for (Charge c : charges) {
            EpsilonBound b = tally.party(c.party(), budget.delta(), Conversion.STANDARD, false);
            if (worst == null || b.epsilon() > worst.epsilon()) {
                worst = b;
            }
        }
        return worst;
    }

    private void record(List<LedgerEntry> added) {
        if (tally != null) {
            tally.add(added);
            ledger = tally.ledger();
        } else {
            added.forEach(ledger::add);
        }
        spent = null;
    }

    /** Takes back applications that were just recorded (the step they belonged to was refused). */
    private void undo(List<LedgerEntry> added) {
        PrivacyLedger previous = new PrivacyLedger();
        List<LedgerEntry> remaining = new ArrayList<>(added);
        for (LedgerEntry e : ledger.entries()) {
            long count = e.count();
            for (var it = remaining.iterator(); it.hasNext(); ) {
                LedgerEntry a = it.next();
                if (a.sameApplication(e)) {
                    count -= a.count();
                    it.remove();
                }
            }
            if (count > 0) {
                previous.add(e.withCount(count));
            }
        }
        if (tally != null) {
            tally.reset(previous);
            ledger = tally.ledger();
        } else {
            ledger = previous;
        }
        spent = null;
    }

    /** The guarantee after the charges, for the parties they touch (every party when one charge touches all). */
    private EpsilonBound affectedBound(List<Charge> charges) {
        if (charges.stream().anyMatch(c -> c.party() == LedgerEntry.ALL_PARTIES)) {
            return spent();
        }
        EpsilonBound worst = null;
        for (Charge c : charges) {
            EpsilonBound b = spentBy(c.party());
            if (worst == null || b.epsilon() > worst.epsilon()) {
                worst = b;
            }
        }
        return worst;
    }

    /**
     * Every accountant's bound for the weakest party's ledger, by accountant name (the default accounting: rdp, zcdp,
     * gaussian, pld, as they apply), beside {@link #spent(Conversion)}, which is the smallest of them.
     */
    public java.util.Map<String, EpsilonBound> everyBound(Conversion conversion) {
        return accounting.everyBound(ledger, budget.delta(), conversion);
    }

    /**
     * What the run has spent (standard conversion, at the budget's delta): the weakest party's guarantee. Priced when
     * asked, and only for the parties charged since it was last known.
     */
    public EpsilonBound spent() {
        if (spent == null) {
            if (earlierWorst != null) {
                EpsilonBound worst = earlierWorst;
                for (int p : touched) {
                    EpsilonBound b = spentBy(p);
                    if (b.epsilon() > worst.epsilon()) {
                        worst = b;
                    }
                }
                spent = worst;
            } else {
                spent = worstParty().bound();
            }
            earlierWorst = null;
            touched.clear();
        }
        return spent;
    }

    /** What the run has spent with the chosen conversion. */
    public EpsilonBound spent(Conversion conversion) {
        if (conversion == Conversion.STANDARD) {
            return spent();
        }
        return tally != null ? tally.worst(budget.delta(), conversion).bound() : accounting.bound(ledger, budget.delta(), conversion);
    }

    /** Epsilon spent so far (standard conversion). */
    public double epsilon() {
        return spent().epsilon();
    }

    /** The weakest party's guarantee, naming the party. */
    public LedgerAccounting.PartyBound worstParty() {
        return tally != null ? tally.worst(budget.delta(), Conversion.STANDARD)
                : accounting.worstParty(ledger, budget.delta(), Conversion.STANDARD);
    }

    /** The guarantee of one party. */
    public EpsilonBound spentBy(int party) {
        return tally != null ? tally.party(party, budget.delta(), Conversion.STANDARD)
                : accounting.boundOfParty(ledger, party, budget.delta(), Conversion.STANDARD);
    }

    /**
     * The epsilon the ledger would reach after {@code count} more applications of {@code charge} (planning: what a
     * continuation of the run will cost).
     */
    public EpsilonBound after(Charge charge, long count) {
        PrivacyLedger next = ledger.copy();
        if (count > 0) {
            next.add(new LedgerEntry(charge.event(), count, charge.party(), charge.mechanism(), secureNoise, segment));
        }
        return accounting.bound(next, budget.delta(), Conversion.STANDARD);
    }

    /**
     * Continues the ledger of an earlier part of the run (a resume): its entries are kept as they were, and new
     * applications are recorded in the same settings segment, or in a new one when the settings changed.
     *
     * @throws IllegalStateException if this ledger has already recorded applications
     */
    public void continueFrom(PrivacyLedger earlier, boolean settingsChanged) {
        Objects.requireNonNull(earlier, "earlier ledger");
        if (!ledger.isEmpty()) {
            throw new IllegalStateException("the ledger already holds " + ledger.entries().size()
                    + " entries; continue an earlier ledger before the first step");
        }
        if (tally != null) {
            tally.reset(earlier);
            ledger = tally.ledger();
        } else {
            ledger = earlier.copy();
        }
        int last = earlier.lastSegment();
        segment = last < 0 ? 0 : settingsChanged ? last + 1 : last;
        spent = null;
        earlierWorst = null;
        touched.clear();
        certified = null;
    }

    /** The entries so far (a copy). */
    public PrivacyLedger ledger() {
        return ledger.copy();
    }

    /** The settings segment new applications are recorded in. */
    public int segment() {
        return segment;
    }

    /**
     * Marks what this ledger prices as not a guarantee: a protocol whose events carry a parameter it estimated (GOPA's
     * kappa over sampled colluding sets), or that runs another algorithm than the one its events analyse (Decor's
     * reference-code compatibility), says so here, and everything that shows the ledger's epsilon says it too.
     *
     * @param why why the epsilon is not a guarantee, and how to get one
     */
    public void markNotAGuarantee(String why) {
        this.notAGuarantee = Objects.requireNonNull(why, "why");
    }

    /** Why the epsilon is not a guarantee; empty when it is one (up to the noise source's caveat). */
    public java.util.Optional<String> notAGuarantee() {
        return java.util.Optional.ofNullable(notAGuarantee);
    }

    /** Whether the run's noise comes from a secure source. */
    public boolean secureNoise() {
        return secureNoise;
    }

    public PrivacyBudget budget() {
        return budget;
    }

    public LedgerAccounting accounting() {
        return accounting;
    }

    /** Delta of every epsilon of the run. */
    public double delta() {
        return budget.delta();
    }
}
