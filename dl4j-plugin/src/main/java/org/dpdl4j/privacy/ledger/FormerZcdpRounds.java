package org.dpdl4j.privacy.ledger;

import org.dpdl4j.privacy.accounting.ZCdpEvent;

/**
 * Rounds a former version recorded as zCDP statements: DP-mu^2-SGD's rounds and the publications of DP-RECAL, DP-PG-EXTRA
 * and DP-NIDS, whose noise it calibrated with the papers' zCDP closed form. They are recorded as the Gaussian releases they
 * are now, and calibrated to the run's accountant, which by default draws less noise for the same target. A run resumed
 * from such a checkpoint would go on with other noise (and, for mu^2, another step size) than its saved rounds had.
 */
public final class FormerZcdpRounds {
    private FormerZcdpRounds() {
    }

    /**
     * Why {@code saved} cannot go on as one mechanism in a run of {@code protocol} (null when it holds no zCDP statement).
     */
    public static String changeSince(PrivacyLedger saved, String protocol) {
        boolean former = saved.entries().stream().anyMatch(e -> e.event() instanceof ZCdpEvent);
        return !former ? null : "holds " + protocol + " rounds recorded as zCDP statements by an earlier version, whose noise"
                + " was calibrated with the papers' zCDP closed form; this version records them as Gaussian releases and"
                + " calibrates to the run's accountant (the exact Gaussian curve by default), with less noise for the same"
                + " target, so the saved and the new rounds would not be one mechanism";
    }
}
