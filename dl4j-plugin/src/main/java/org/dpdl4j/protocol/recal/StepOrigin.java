package org.dpdl4j.protocol.recal;

import java.util.Locale;

/**
 * Where a primal-dual run's step sizes come from, and with them its sensitivities and noise std: what its privacy
 * statement says beside the ledger, and the smoothness constants the steps were made from (which the step condition
 * the run reports is checked against, so that the report says nothing the steps do not). Steps from the agents' own
 * smoothness (the papers' choice) are functions of their data that the ledger does not price; steps from a public
 * feature bound, or a given alpha, are not.
 *
 * @param statementLine the statement's line, indented
 * @param smoothness    every agent's smoothness constant the steps follow
 */
record StepOrigin(String statementLine, double[] smoothness) {
    /** The steps follow each agent's smoothness L_i computed from its own data. */
    static StepOrigin agentsData(double[] smoothness) {
        return new StepOrigin("  Not accounted: the step sizes (and for PG-EXTRA and NIDS the noise std) follow each agent's"
                + " smoothness L_i computed from its own data, as in the papers, so the epsilon is not a guarantee (see the"
                + " WARNING). --feature-norm-bound B takes them from a public bound instead.",
                smoothness.clone());
    }

    /** The steps follow {@link CompositeProblem#publicSmoothness}: the bound and the agents' record counts. */
    static StepOrigin publicBound(double featureNormBound, double[] smoothness) {
        return new StepOrigin(String.format(Locale.ROOT, "  Step sizes and noise std follow the public feature bound ||x||"
                + " <= %s and the agents' record counts (L_i = c m_i (B^2 + 1) with an intercept, c m_i B^2 without), not"
                + " the records' values.", featureNormBound), smoothness.clone());
    }

    /** PG-EXTRA's or NIDS's alpha was given; {@code smoothness} is what the defaults would have followed. */
    static StepOrigin givenStep(double alpha, double[] smoothness) {
        return new StepOrigin(String.format(Locale.ROOT, "  The step size alpha = %s was given, so the noise std does not"
                + " depend on the data.", alpha), smoothness.clone());
    }

    /** A copy: the record's array is not shared. */
    @Override
    public double[] smoothness() {
        return smoothness.clone();
    }
}
