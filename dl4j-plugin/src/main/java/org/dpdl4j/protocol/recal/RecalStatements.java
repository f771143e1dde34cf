package org.dpdl4j.protocol.recal;

/** What the privacy statements of the primal-dual protocols say beside their ledgers. */
final class RecalStatements {
    /**
     * The limit of their accounting that the ledger cannot show: the step sizes (tau_i, beta_i, gamma, and alpha, hence
     * the noise std, of PG-EXTRA and NIDS) follow each agent's smoothness L_i computed from its own data, as in the
     * papers; a public bound on L_i would close that gap at the cost of smaller steps.
     */
    static final String DATA_DERIVED_STEPS = "  Not accounted: the step sizes (and for PG-EXTRA and NIDS the noise std) follow each"
            + " agent's smoothness L_i computed from its own data, as in the papers; an observer who learns them learns a"
            + " little about the data beyond this epsilon.";

    private RecalStatements() {
    }
}
