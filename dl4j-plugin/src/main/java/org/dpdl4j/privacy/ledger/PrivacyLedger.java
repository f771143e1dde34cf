package org.dpdl4j.privacy.ledger;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.dpdl4j.privacy.accounting.ComposedEvent;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.EnvelopeEvent;
import org.dpdl4j.privacy.accounting.NoOpEvent;
import org.dpdl4j.privacy.accounting.SelfComposedEvent;

/**
 * What a run has spent: every application of a private mechanism, aggregated by identical application (same
 * event, party, description, noise source and settings segment) with a count. Composition is commutative, so the
 * aggregate prices exactly as the sequence; it keeps the order in which applications first appeared.
 * Not thread-safe.
 */
public final class PrivacyLedger {
    private final Map<Key, LedgerEntry> entries = new LinkedHashMap<>();

    private record Key(DpEvent event, int party, String mechanism, boolean secureNoise, int segment) {
        static Key of(LedgerEntry e) {
            return new Key(e.event(), e.party(), e.mechanism(), e.secureNoise(), e.segment());
        }
    }

    public PrivacyLedger() {
    }

    /** A ledger holding the given entries (entries describing the same application are added up). */
    public PrivacyLedger(Collection<LedgerEntry> initial) {
        initial.forEach(this::add);
    }

    /**
     * The ledger a run will hold once it has taken {@code steps} steps that each make the given applications: what a
     * run's own {@code plannedLedger()} and a protocol's pricing of settings it has not built both write, so that they
     * agree.
     *
     * @param chargesOfStep the applications of a step, by 0-based step index
     * @param secureNoise   whether the run's noise comes from a secure source
     */
    public static PrivacyLedger planned(long steps, java.util.function.LongFunction<List<Charge>> chargesOfStep,
                                        boolean secureNoise) {
        PrivacyLedger planned = new PrivacyLedger();
        for (long step = 0; step < steps; step++) {
            for (Charge c : chargesOfStep.apply(step)) {
                planned.add(new LedgerEntry(c.event(), 1, c.party(), c.mechanism(), secureNoise, 0));
            }
        }
        return planned;
    }

    /** The planned ledger ({@link #planned}) of {@code steps} steps that each apply {@code event} to every protected unit. */
    public static PrivacyLedger plannedRepetition(DpEvent event, String mechanism, long steps, boolean secureNoise) {
        return planned(steps, step -> List.of(Charge.ofAll(event, mechanism)), secureNoise);
    }

    /** Adds an entry, adding its count to an existing entry of the same application. */
    public void add(LedgerEntry entry) {
        Objects.requireNonNull(entry, "entry");
        entries.merge(Key.of(entry), entry, (old, added) -> old.withCount(Math.addExact(old.count(), added.count())));
    }

    /** The entries, in order of first appearance (an unmodifiable snapshot). */
    public List<LedgerEntry> entries() {
        return List.copyOf(entries.values());
    }

    /** Whether nothing has been spent. */
    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The parties with entries of their own, ascending. */
    public List<Integer> parties() {
        TreeSet<Integer> out = new TreeSet<>();
        for (LedgerEntry e : entries.values()) {
            if (e.party() != LedgerEntry.ALL_PARTIES) {
                out.add(e.party());
            }
        }
        return List.copyOf(out);
    }

    /** The highest settings segment recorded, or -1 for an empty ledger. */
    public int lastSegment() {
        return entries.values().stream().mapToInt(LedgerEntry::segment).max().orElse(-1);
    }

    /** Whether every entry's noise came from a secure source. */
    public boolean allSecure() {
        return entries.values().stream().allMatch(LedgerEntry::secureNoise);
    }

    /**
     * The entries that apply to one party's data, in the order they are priced: those of every party, then the
     * party's own, each in ledger order.
     */
    List<LedgerEntry> entriesOf(int party) {
        List<LedgerEntry> out = new ArrayList<>();
        for (LedgerEntry e : entries.values()) {
            if (e.party() == LedgerEntry.ALL_PARTIES) {
                out.add(e);
            }
        }
        if (party != LedgerEntry.ALL_PARTIES) {
            for (LedgerEntry e : entries.values()) {
                if (e.party() == party) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    /**
     * What the ledger applies to one party's data, as one event: the composition of its entries (those of every party
     * and the party's own), each repeated its count; {@link LedgerEntry#ALL_PARTIES} gives the entries of every party
     * only. An empty composition ({@link NoOpEvent}) when nothing applies.
     */
    public DpEvent eventOf(int party) {
        List<DpEvent> events = new ArrayList<>();
        for (LedgerEntry e : entriesOf(party)) {
            events.add(e.count() == 1 ? e.event() : new SelfComposedEvent(e.event(), e.count()));
        }
        return events.isEmpty() ? new NoOpEvent() : events.size() == 1 ? events.get(0) : new ComposedEvent(events);
    }

    /**
     * One event that bounds what the ledger applies to every party's data: the envelope of the parties' events
     * ({@link #eventOf(int)}), or the ledger's one event when no party has entries of its own.
     */
    public DpEvent worstPartyEvent() {
        List<Integer> parties = parties();
        if (parties.isEmpty()) {
            return eventOf(LedgerEntry.ALL_PARTIES);
        }
        return EnvelopeEvent.of(parties.stream().map(this::eventOf).toList());
    }

    /**
     * Whether every application here is also in {@code larger}, at least as often: then {@code larger} composes
     * everything this ledger does and more, and its epsilon bounds this one's.
     */
    public boolean isCoveredBy(PrivacyLedger larger) {
        for (Map.Entry<Key, LedgerEntry> e : entries.entrySet()) {
            LedgerEntry other = larger.entries.get(e.getKey());
            if (other == null || other.count() < e.getValue().count()) {
                return false;
            }
        }
        return true;
    }

    /** An independent copy. */
    public PrivacyLedger copy() {
        return new PrivacyLedger(entries.values());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PrivacyLedger other && entries().equals(other.entries());
    }

    @Override
    public int hashCode() {
        return entries().hashCode();
    }

    @Override
    public String toString() {
        return "PrivacyLedger" + entries();
    }
}
