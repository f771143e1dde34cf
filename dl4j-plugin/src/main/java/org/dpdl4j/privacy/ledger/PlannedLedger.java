package org.dpdl4j.privacy.ledger;

import java.util.Objects;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;

/**
 * What a run will spend, known before it is built: the ledger it will hold once its planned steps are taken, and the
 * neighbouring relation that ledger is priced under (its guarantee is about datasets that differ so).
 *
 * @param ledger        the planned ledger, as the run's {@code plannedLedger()} gives it
 * @param relation      the relation of the run's accounting
 * @param notAGuarantee why the run's ledger will be marked not a guarantee ({@link RunLedger#markNotAGuarantee}),
 *                      null when it is one
 */
public record PlannedLedger(PrivacyLedger ledger, NeighbouringRelation relation, String notAGuarantee) {
    public PlannedLedger {
        Objects.requireNonNull(ledger, "ledger");
        Objects.requireNonNull(relation, "relation");
    }

    /** A planned ledger whose epsilon is a guarantee. */
    public PlannedLedger(PrivacyLedger ledger, NeighbouringRelation relation) {
        this(ledger, relation, null);
    }

    /** Marks {@code ledger}, which prices this plan, as the run's own ledger will be. */
    public void markIfNotAGuarantee(RunLedger ledger) {
        if (notAGuarantee != null) {
            ledger.markNotAGuarantee(notAGuarantee);
        }
    }
}
