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
        if (parties.isEmpty()) {
            return new LedgerAccounting.PartyBound(LedgerEntry.ALL_PARTIES, bound(all.total(), delta, conversion));
        }
        LedgerAccounting.PartyBound worst = null;
        for (Map.Entry<Integer, Chain> c : parties.entrySet()) {
            EpsilonBound b = bound(c.getValue().total(), delta, conversion);
            if (worst == null || b.epsilon() > worst.bound().epsilon()) {
                worst = new LedgerAccounting.PartyBound(c.getKey(), b);
            }
        }
        return worst;
    }

    /** One party's guarantee ({@link LedgerEntry#ALL_PARTIES}: the entries of every party only). */
    EpsilonBound party(int party, double delta, Conversion conversion) {
        Chain c = party == LedgerEntry.ALL_PARTIES ? all : parties.get(party);
        return bound(c == null ? all.total() : c.total(), delta, conversion);
    }

    private EpsilonBound bound(double[] total, double delta, Conversion conversion) {
        return additive.epsilonBound(total == null ? new double[accounting.costLength()] : total, delta, conversion);
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
