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
     * The default: {@link StandardAccountant}, the exact zCDP conversion for ledgers of unsampled Gaussian
     * mechanisms and Renyi DP over the default orders for everything else.
     */
    static AccountantFactory standard() {
        return StandardAccountant::new;
    }

    /** Renyi DP over {@link RdpAccountant#defaultOrders()} for every ledger. */
    static AccountantFactory rdp() {
        return RdpAccountant::new;
    }

    /** zCDP only: refuses sampled mechanisms (see {@link ZCdpAccountant}). */
    static AccountantFactory zcdp() {
        return ZCdpAccountant::new;
    }
}
