package org.dpdl4j.privacy.ledger;

import java.util.List;
import java.util.Locale;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.EpsilonBound;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;

/**
 * A run's ledger in words: what was spent, in which settings segment, on whose data, and the epsilon it adds up to,
 * with the noise source's caveat. Every private run's privacy statement ends with it.
 */
public final class LedgerStatement {
    private LedgerStatement() {
    }

    /**
     * The first lines of the statement of a run resumed under changed settings (empty for a run of one settings segment):
     * a protocol's own description of its mechanism is that of the settings it runs under now, so the statement says
     * first that the earlier segments ran under others, listed in the ledger.
     */
    public static String resumedPreamble(RunLedger run) {
        int segments = run.ledger().lastSegment() + 1;
        if (segments < 2) {
            return "";
        }
        return "Resumed under changed settings: this run is composed of " + segments + " settings segments, each listed with"
                + " its own mechanism in the ledger below, whose epsilon composes them all. The description that follows is"
                + " of the last segment's settings (segment " + segments + "), not of every step.\n";
    }

    /** The ledger section of a privacy statement. */
    public static String text(RunLedger run) {
        PrivacyLedger ledger = run.ledger();
        StringBuilder s = new StringBuilder("Ledger (every application of a private mechanism in this run");
        s.append(run.accounting().relation() == NeighbouringRelation.ADD_OR_REMOVE_ONE
                ? "; neighbours differ by adding or removing one unit" : "; neighbours differ by replacing one unit").append("):\n");
        List<LedgerEntry> entries = ledger.entries();
        if (entries.isEmpty()) {
            s.append("  nothing spent yet\n");
        }
        int segments = ledger.lastSegment() + 1;
        for (int seg = 0; seg < Math.max(1, segments); seg++) {
            final int segment = seg;
            List<LedgerEntry> in = entries.stream().filter(e -> e.segment() == segment).toList();
            if (in.isEmpty()) {
                continue;
            }
            if (segments > 1) {
                s.append("  segment ").append(seg + 1).append(seg == 0 ? " (as started)" : " (resumed under changed settings)")
                        .append(":\n");
            }
            long parties = in.stream().filter(e -> e.party() != LedgerEntry.ALL_PARTIES).map(LedgerEntry::party).distinct().count();
            if (parties > 12) {
                long total = in.stream().mapToLong(LedgerEntry::count).sum();
                s.append("    ").append(total).append(" applications to ").append(parties).append(" parties, e.g. ")
                        .append(in.get(0).mechanism()).append('\n');
                continue;
            }
            // Applications described alike (one schedule, e.g. a decaying noise) are listed once with their total count.
            java.util.Map<String, Long> lines = new java.util.LinkedHashMap<>();
            for (LedgerEntry e : in) {
                String line = e.mechanism() + (e.party() == LedgerEntry.ALL_PARTIES ? "" : " [party " + e.party() + "]")
                        + (e.secureNoise() ? "" : " [seeded randomness]");
                lines.merge(line, e.count(), Long::sum);
            }
            lines.forEach((line, count) -> s.append("    ").append(count).append(" x ").append(line).append('\n'));
        }
        EpsilonBound standard = run.spent(Conversion.STANDARD);
        EpsilonBound improved = run.spent(Conversion.IMPROVED);
        LedgerAccounting.PartyBound worst = run.worstParty();
        s.append(String.format(Locale.ROOT, "  spent: epsilon = %s (the %s accountant's bound%s), at delta = %s",
                EpsilonFormat.upward(standard.epsilon()), standard.accountant(), improved.epsilon() < standard.epsilon()
                        ? "; " + EpsilonFormat.upward(improved.epsilon()) + " with Renyi DP's improved conversion" : "",
                run.delta()));
        if (worst.party() != LedgerEntry.ALL_PARTIES) {
            s.append(" (the most exposed party: ").append(worst.party()).append(')');
        }
        s.append('\n');
        s.append("  priced by: ").append(run.accounting().method()).append(pricingNote(run.accounting().method())).append('\n');
        s.append("  budget: ").append(run.budget().isLimited()
                ? String.format(Locale.ROOT, "epsilon %s (the run stops before a step that would exceed it)", run.budget().epsilon())
                : "none (the run reports what it spends)").append('\n');
        if (segments > 1) {
            s.append("  The run was resumed under changed settings: the epsilon above composes every segment.\n");
        }
        run.notAGuarantee().ifPresent(why -> s.append("  WARNING: this epsilon is not a guarantee: ").append(why)
                .append('\n'));
        if (!ledger.allSecure()) {
            s.append("  WARNING: some randomness (noise, or the choice of batches) came from a seeded (reproducible) source:"
                    + " anyone with the seed can remove the noise or knows the batches, so these numbers describe the noise"
                    + " level, not a guarantee.\n");
        }
        return s.toString();
    }

    private static String pricingNote(String method) {
        String description = AccountantFactory.describe(method);
        return description.isEmpty() ? "" : " (" + description + ")";
    }
}
