package org.dpdl4j.protocol.recal;

/** The algorithms of the DP-RECAL comparison (spec 5, Table V), by registered name. */
public enum PrimalDualAlgorithm {
    RECAL(RelayRecal.RECAL, "relay", false,
            "RECAL: primal-dual (AFBS) by relay, a baton (y, sum of duals) on a random walk; one agent works per iteration"),
    DP_RECAL(RelayRecal.DP_RECAL, "relay", true,
            "DP-RECAL: RECAL with decaying Gaussian noise on each published dual, accounted over each agent's activations (LCI)"),
    RECAL_SYNC(SynchronousAfbs.PROTOCOL, "decentralized", false,
            "synchronous AFBS primal-dual iteration (6a-6d): every agent each iteration, with the sum of all duals"),
    PG_EXTRA(PgExtra.PG_EXTRA, "decentralized", false, "PG-EXTRA: proximal gradient tracking over the mixing matrix"),
    DP_PG_EXTRA(PgExtra.DP_PG_EXTRA, "decentralized", true,
            "DP-PG-EXTRA: PG-EXTRA with decaying Gaussian noise on every published model, accounted per agent"),
    NIDS(Nids.NIDS, "decentralized", false, "NIDS: network-independent step-size proximal gradient tracking"),
    DP_NIDS(Nids.DP_NIDS, "decentralized", true,
            "DP-NIDS: NIDS with decaying Gaussian noise on every published vector, accounted per agent");

    private final String cliName;
    private final String family;
    private final boolean isPrivate;
    private final String summary;

    PrimalDualAlgorithm(String cliName, String family, boolean isPrivate, String summary) {
        this.cliName = cliName;
        this.family = family;
        this.isPrivate = isPrivate;
        this.summary = summary;
    }

    public String cliName() {
        return cliName;
    }

    public String family() {
        return family;
    }

    public boolean isPrivate() {
        return isPrivate;
    }

    /**
     * Why a private run priced the papers' way has an epsilon that is not a proven bound, or null for the algorithms
     * without noise. Each publication is priced with the sensitivity of the gradient it adds, the agent's internal
     * state conditioned on, as the papers do (spec 5.4); but that state (an agent's exact primal iterate, and for the
     * gossip baselines its own exact term in every mixing) carries all its earlier gradients and is never published, so
     * an observer of the publications is not given it. DP-RECAL on least squares is priced with the drift of that state
     * instead ({@link PublicationSensitivity#STATE_DRIFT}) unless the paper's accounting is asked for; the baselines'
     * feedback is different, and no bound for it is proven here.
     */
    public String notAGuarantee() {
        if (!isPrivate) {
            return null;
        }
        if (this == DP_RECAL) {
            return cliName + " priced each publication with the sensitivity of the gradient it adds, conditioned on the agent's"
                    + " internal state as the paper does; that state is the agent's exact primal iterate, which carries every"
                    + " earlier gradient of its data and is never published (the m-th publication can move by up to (m + 1)/2"
                    + " times the priced sensitivity), so the epsilon is the paper's figure, not a proven bound. The pricing of"
                    + " that drift applies to least squares with tau_i <= 1/L_i (--step-scale <= 2) without --paper-accounting,"
                    + " and is a proven bound with steps from a public bound (--feature-norm-bound)";
        }
        return cliName + " prices each publication with the sensitivity of the gradient it adds, conditioned on the"
                + " agent's internal state as the paper does; that state is each agent's own exact iterate, which enters its"
                + " every mixing step, carries its earlier gradients and is never published, so the epsilon is the paper's"
                + " figure, not a proven bound. For a guarantee, use a protocol whose agents continue from what they publish"
                + " (decor, ldp or cdp), or dp-recal on least squares with --feature-norm-bound, --step-scale <= 2 and secure"
                + " noise";
    }

    public String summary() {
        return summary;
    }

    /** Whether agents take turns along a baton instead of all working every iteration. */
    public boolean isRelay() {
        return this == RECAL || this == DP_RECAL;
    }

    /** The algorithm of a registered name. */
    public static PrimalDualAlgorithm of(String name) {
        for (PrimalDualAlgorithm a : values()) {
            if (a.cliName.equals(name)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown primal-dual algorithm '" + name + "'");
    }
}
