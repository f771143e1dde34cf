package org.dpdl4j.runtime;

import java.util.Objects;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseKind;

/**
 * The privacy set-up every private run shares, as one value: what its noise is calibrated to, the delta of every
 * epsilon, where it stops, where its randomness comes from, and how it is priced. {@link PrivateRunBuilder} assembles
 * it; a protocol's run description holds it; {@link #ledger} is the one place a run's ledger is made from it.
 *
 * @param targetEpsilon the epsilon the noise is calibrated to, NaN when the noise is given instead
 * @param delta         delta of every epsilon
 * @param budget        where the run stops, NaN for the target (or no limit when the noise is given)
 * @param noise         where noise and sampling come from
 * @param seed          master seed of every seeded stream (splits, sampling, seeded noise)
 * @param accountants   the accountant of the ledger and of the calibration
 */
public record PrivacySetup(double targetEpsilon, double delta, double budget, NoiseKind noise, long seed,
                           AccountantFactory accountants) {
    public PrivacySetup {
        Objects.requireNonNull(noise, "noise kind");
        Objects.requireNonNull(accountants, "accountant factory");
    }

    /** Whether the noise is calibrated to a target rather than given. */
    public boolean byTarget() {
        return !Double.isNaN(targetEpsilon);
    }

    /**
     * The ledger of a run set up so: priced by the accountant for {@code relation}, checked against the budget (the
     * target when no budget was given), and marked as drawing secure noise or not.
     */
    public RunLedger ledger(NeighbouringRelation relation, boolean secureNoise) {
        return new RunLedger(new LedgerAccounting(accountants, relation), PrivacyBudget.of(budget, targetEpsilon, delta),
                secureNoise);
    }
}
