package org.dpdl4j.privacy.accounting;

/**
 * Makes the accountant that prices a run's ledger, for the neighbouring relation the run's mechanism is analysed
 * under (as dp_accounting's accountant factories do). Protocols take a factory and never name an accountant class,
 * so a user can swap the analysis for every protocol at once.
 */
@FunctionalInterface
public interface AccountantFactory {

    /** A fresh accountant with an empty ledger. */
    PrivacyAccountant create(NeighbouringRelation relation);

    /**
     * The default: {@link TightestAccountant}, the smallest of the RDP, zCDP, exact Gaussian and PLD bounds that apply
     * to the ledger (each a valid upper bound), naming the accountant that gave it.
     */
    static AccountantFactory standard() {
        return TightestAccountant::new;
    }

    /** Renyi DP over {@link RdpAccountant#defaultOrders()} for every ledger. */
    static AccountantFactory rdp() {
        return RdpAccountant::new;
    }

    /** zCDP only: refuses sampled mechanisms (see {@link ZCdpAccountant}). */
    static AccountantFactory zcdp() {
        return ZCdpAccountant::new;
    }

    /** The smallest of the additive bounds (RDP, zCDP, exact Gaussian), without privacy loss distributions. */
    static AccountantFactory additive() {
        return TightestAdditiveAccountant::new;
    }

    /** Privacy loss distributions only (see {@link PldAccountant}). */
    static AccountantFactory pld() {
        return PldAccountant::new;
    }
}
