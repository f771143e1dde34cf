package org.dpdl4j.privacy.accounting;

/**
 * Makes the accountant that prices a run's ledger, for the neighbouring relation the run's mechanism is analysed
 * under (as dp_accounting's accountant factories do). Protocols take a factory and never name an accountant class,
 * so a user can swap the analysis for every protocol at once.
 */
@FunctionalInterface
public interface AccountantFactory {
    /** Name of the default pricing (the tightest valid bound), see {@link #named}. */
    String TIGHTEST = "tightest";
    /** Name of Renyi DP pricing (the default before the exact Gaussian and PLD accountants), see {@link #named}. */
    String RDP = "rdp";
    /** Name of the additive candidates' pricing (RDP, zCDP, exact Gaussian; no PLD), see {@link #named}. */
    String ADDITIVE = "additive";
    /** The names {@link #named} accepts, the default first. */
    java.util.List<String> NAMES = java.util.List.of(TIGHTEST, RDP, ADDITIVE);

    /** A fresh accountant with an empty ledger. */
    PrivacyAccountant create(NeighbouringRelation relation);

    /**
     * The default: {@link TightestAccountant}, the smallest of the RDP, zCDP, exact Gaussian and PLD bounds that apply
     * to the ledger (each a valid upper bound), naming the accountant that gave it.
     */
    static AccountantFactory standard() {
        return TightestAccountant::new;
    }

    /**
     * Renyi DP as runs were priced before the exact Gaussian and PLD accountants: the RDP curve over the default orders,
     * converted exactly (the zCDP optimum) where the curve is linear. Every run whose ledger records no accountant was
     * priced this way.
     */
    static AccountantFactory renyi() {
        return r -> new TightestAdditiveAccountant(r, false);
    }

    /**
     * The pricing of a name ({@link #NAMES}): {@value #TIGHTEST} ({@link #standard()}), {@value #RDP} ({@link #renyi()})
     * or {@value #ADDITIVE} ({@link #additive()}).
     *
     * @throws IllegalArgumentException for another name, listing the known ones
     */
    static AccountantFactory named(String name) {
        return switch (name) {
            case TIGHTEST -> standard();
            case RDP -> renyi();
            case ADDITIVE -> additive();
            default -> throw new IllegalArgumentException("unknown accountant '" + name + "'; use one of " + String.join(", ", NAMES));
        };
    }

    /**
     * What a pricing name ({@link #NAMES}) means, in words for statements and reports; empty for another name (an
     * accountant outside the named ones, e.g. {@link #pld()}, whose own name says what it is).
     */
    static String describe(String name) {
        return switch (name) {
            case TIGHTEST -> "the smallest valid bound of Renyi DP, zCDP, the exact Gaussian curve and privacy loss"
                    + " distributions, each an upper bound on the true epsilon";
            case RDP -> "Renyi DP alone, as runs were priced before the exact Gaussian and PLD accountants";
            case ADDITIVE -> "the smallest of Renyi DP, zCDP and the exact Gaussian curve";
            default -> "";
        };
    }

    /** Renyi DP over {@link RdpAccountant#defaultOrders()} for every ledger (the order grid only). */
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
