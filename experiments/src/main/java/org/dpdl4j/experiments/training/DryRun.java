package org.dpdl4j.experiments.training;

import org.dpdl4j.privacy.ledger.DeltaAdvice;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import java.io.PrintWriter;
import java.util.Locale;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.ledger.LedgerStatement;
import org.dpdl4j.runtime.MemoryCheck;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * What {@code train --dry-run} prints: a run priced before it exists. The privacy comes from the protocol's planned
 * ledger ({@link Protocol#plannedLedger}: the settings and the data's sizes, no model, no noise stream), priced by the
 * accountant the run would use, and the memory from its estimate; a run that would not fit says so. Every protocol
 * that can price a run in advance has this entry, with nothing written for it.
 */
final class DryRun {
    private DryRun() {
    }

    /** @param units the number of training examples, the smallest number of protected units (for the delta warning) */
    static Outcome print(Protocol protocol, RunSettings settings, RunInputs inputs, long units, MemoryEstimate memory,
                         PrintWriter out) {
        out.printf(Locale.ROOT, "Dry run of %s: priced from its settings and the data's sizes; nothing is trained or"
                + " written.%n", protocol.name());
        out.printf(Locale.ROOT, "Memory at its largest: %s native, %s heap (%s)%n", MemoryCheck.size(memory.nativeBytes()),
                MemoryCheck.size(memory.heapBytes()), memory.largestParts());
        try {
            MemoryCheck.require(memory);
        } catch (RuntimeException e) {
            out.println("It would be refused here: " + e.getMessage());
        }
        if (!protocol.isPrivate()) {
            out.println("Privacy: none (" + protocol.name() + " adds no noise and keeps no ledger)");
            out.flush();
            return Outcome.PRICED;
        }
        PlannedLedger planned = protocol.plannedLedger(settings, inputs).orElseThrow(() -> SessionOptions.DRY_RUN.invalid(
                protocol.name() + " does not price a run before it runs (it has no planned ledger for these settings); drop"
                        + " --dry-run and read"
                        + " the run's ledger (privacy.txt) as it trains"));
        RunLedger ledger = new RunLedger(new LedgerAccounting(RunOptions.accountants(settings), planned.relation()),
                PrivacyBudget.unlimited(settings.get(RunOptions.DELTA, 1e-5)), planned.ledger().allSecure());
        ledger.continueFrom(planned.ledger(), false);
        planned.markIfNotAGuarantee(ledger);
        DeltaAdvice.optionWarning(ledger.delta(), units).ifPresent(out::println);
        out.print("Planned privacy (every planned step taken):\n" + LedgerStatement.text(ledger));
        out.printf(Locale.ROOT, "epsilon=%s%n", EpsilonFormat.upward(ledger.epsilon(), 6));
        out.flush();
        return Outcome.PRICED;
    }
}
