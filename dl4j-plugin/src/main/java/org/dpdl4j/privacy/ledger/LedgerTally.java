package org.dpdl4j.privacy.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dpdl4j.privacy.accounting.AdditiveAccountant;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.EpsilonBound;

/**
 * The running cost of a ledger, kept so that a step's budget check and epsilon cost a few hundred additions however
 * long the run: every party's total is the entries that touch every party, then the party's own entries, each
 * {@code count * cost(event)}, summed in ledger order (the order {@link LedgerAccounting} prices a ledger in, so both
 * give the same bits). A step that adds to the newest entry of a chain, or appends one, updates the total in place;
 * anything else recomputes the chain.
 */
final class LedgerTally {
    private final LedgerAccounting accounting;
    private final AdditiveAccountant additive;
    private final Chain all;
    private final Map<Integer, Chain> parties = new TreeMap<>();
    private PrivacyLedger ledger = new PrivacyLedger();

    LedgerTally(LedgerAccounting accounting, AdditiveAccountant additive) {
        this.accounting = accounting;
        this.additive = additive;
        this.all = new Chain();
    }

    /** The ledger tallied. */
    PrivacyLedger ledger() {
        return ledger;
    }

    /** Starts over from a saved ledger. */
    void reset(PrivacyLedger saved) {
        ledger = saved.copy();
        all.rebuild(ledger.entries().stream().filter(e -> e.party() == LedgerEntry.ALL_PARTIES).toList(), null);
        parties.clear();
        for (int p : ledger.parties()) {
            Chain c = new Chain();
            c.rebuild(ledger.entries().stream().filter(e -> e.party() == p).toList(), all.total);
            parties.put(p, c);
        }
    }

    /** Adds applications; they are in the ledger afterwards. */
    void add(List<LedgerEntry> added) {
        boolean allChanged = false;
        for (LedgerEntry e : added) {
            ledger.add(e);
            if (e.party() == LedgerEntry.ALL_PARTIES) {
                all.add(e, null);
                allChanged = true;
            } else {
                parties.computeIfAbsent(e.party(), p -> new Chain()).add(e, all.total);
            }
        }
        if (allChanged) {
            for (Map.Entry<Integer, Chain> c : parties.entrySet()) {
                int p = c.getKey();
                c.getValue().rebuild(ledger.entries().stream().filter(x -> x.party() == p).toList(), all.total);
            }
        }
    }

    /** The worst party's guarantee. */
    LedgerAccounting.PartyBound worst(double delta, Conversion conversion) {
        return worst(delta, conversion, true);
    }

    /**
     * The worst party's guarantee, refined by the accounting ({@link LedgerAccounting#refine}) or from the additive
     * part alone (an upper bound of the refined one, far cheaper). Refining asks the parties in decreasing order of their
     * additive bound and stops at the first one whose additive bound cannot beat the worst refined bound so far.
     */
    LedgerAccounting.PartyBound worst(double delta, Conversion conversion, boolean refined) {
        if (parties.isEmpty()) {
            return new LedgerAccounting.PartyBound(LedgerEntry.ALL_PARTIES, bound(LedgerEntry.ALL_PARTIES, all.total(), delta,
                    conversion, refined));
        }
        List<LedgerAccounting.PartyBound> additive = new ArrayList<>();
        for (Map.Entry<Integer, Chain> c : parties.entrySet()) {
            additive.add(new LedgerAccounting.PartyBound(c.getKey(), bound(c.getKey(), c.getValue().total(), delta, conversion, false)));
        }
        // stable: among equal bounds the lowest party comes first, as in a scan by party
        additive.sort((a, b) -> Double.compare(b.bound().epsilon(), a.bound().epsilon()));
        if (!refined || !accounting.refines()) {
            return additive.get(0);
        }
        LedgerAccounting.PartyBound worst = null;
        for (LedgerAccounting.PartyBound a : additive) {
            if (worst != null && a.bound().epsilon() <= worst.bound().epsilon()) {
                break; // its refined bound is at most its additive one
            }
            EpsilonBound r = accounting.refine(ledger.entriesOf(a.party()), a.bound(), delta, conversion);
            if (worst == null || r.epsilon() > worst.bound().epsilon()) {
                worst = new LedgerAccounting.PartyBound(a.party(), r);
            }
        }
        return worst;
    }

    /** One party's guarantee ({@link LedgerEntry#ALL_PARTIES}: the entries of every party only). */
    EpsilonBound party(int party, double delta, Conversion conversion) {
        return party(party, delta, conversion, true);
    }

    /** One party's guarantee, refined or from the additive part alone. */
    EpsilonBound party(int party, double delta, Conversion conversion, boolean refined) {
        Chain c = party == LedgerEntry.ALL_PARTIES ? all : parties.get(party);
        return bound(c == null ? LedgerEntry.ALL_PARTIES : party, c == null ? all.total() : c.total(), delta, conversion, refined);
    }

    private EpsilonBound bound(int party, double[] total, double delta, Conversion conversion, boolean refined) {
        EpsilonBound b = additive.epsilonBound(total == null ? new double[accounting.costLength()] : total, delta, conversion);
        return refined ? accounting.refine(ledger.entriesOf(party), b, delta, conversion) : b;
    }

    /** A sequence of entries summed in order: the total and the total before the newest entry. */
    private final class Chain {
        private final List<LedgerEntry> entries = new ArrayList<>();
        private double[] total;
        private double[] beforeLast;

        double[] total() {
            return total;
        }

        void add(LedgerEntry e, double[] start) {
            int last = entries.size() - 1;
            if (last >= 0 && entries.get(last).sameApplication(e)) {
                LedgerEntry merged = entries.get(last).withCount(entries.get(last).count() + e.count());
                entries.set(last, merged);
                total = plus(beforeLast, merged);
                return;
            }
            for (int i = 0; i < entries.size(); i++) {
                if (entries.get(i).sameApplication(e)) {
                    entries.set(i, entries.get(i).withCount(entries.get(i).count() + e.count()));
                    rebuild(List.copyOf(entries), start);
                    return;
                }
            }
            entries.add(e);
            beforeLast = total != null ? total : start;
            total = plus(beforeLast, e);
        }

        void rebuild(List<LedgerEntry> chain, double[] start) {
            entries.clear();
            total = start;
            beforeLast = start;
            for (LedgerEntry e : chain) {
                entries.add(e);
                beforeLast = total;
                total = plus(beforeLast, e);
            }
        }

        private double[] plus(double[] base, LedgerEntry e) {
            double[] cost = accounting.cost(additive, e.event());
            double[] out = base == null ? new double[cost.length] : base.clone();
            for (int i = 0; i < cost.length; i++) {
                out[i] += e.count() * cost[i];
            }
            return out;
        }
    }
}
