package org.dpdl4j.privacy.ledger;

import java.util.List;
import java.util.function.LongFunction;
import org.dpdl4j.privacy.accounting.DpEvent;

/**
 * The ledger a run will hold once it has taken its planned steps, written before the first one: a run's own
 * {@code plannedLedger()} and a protocol's pricing of settings it has not built yet make it here, so that both give
 * the same entries.
 */
public final class PlannedLedger {
    private PlannedLedger() {
    }

    /**
     * The ledger of {@code steps} steps that each make the given applications.
     *
     * @param chargesOfStep the applications of a step, by 0-based step index
     * @param secureNoise   whether the run's noise comes from a secure source
     */
    public static PrivacyLedger of(long steps, LongFunction<List<Charge>> chargesOfStep, boolean secureNoise) {
        PrivacyLedger planned = new PrivacyLedger();
        for (long step = 0; step < steps; step++) {
            for (Charge c : chargesOfStep.apply(step)) {
                planned.add(new LedgerEntry(c.event(), 1, c.party(), c.mechanism(), secureNoise, 0));
            }
        }
        return planned;
    }

    /** The ledger of {@code steps} steps that each apply {@code event} to every protected unit. */
    public static PrivacyLedger repetition(DpEvent event, String mechanism, long steps, boolean secureNoise) {
        return of(steps, step -> List.of(Charge.ofAll(event, mechanism)), secureNoise);
    }
}
