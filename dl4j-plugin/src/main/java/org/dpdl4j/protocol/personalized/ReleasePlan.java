package org.dpdl4j.protocol.personalized;

import java.util.Locale;
import java.util.Objects;
import org.dpdl4j.privacy.accounting.AdvancedComposition;

/**
 * The privacy plan of private coordinate descent: the mechanism, L_0, and every agent's budget per wake-up, fixed
 * before the run from the drawn schedule and the allocation (spec 6.3-6.4).
 *
 * @param mechanism     Laplace (pure epsilon) or Gaussian
 * @param lipschitz     L_0 of the loss in the mechanism's norm (the features' largest norm for the logistic loss)
 * @param epsilonBar    every agent's budget for the algorithm's releases
 * @param releaseDelta  each Gaussian release's delta (0 for Laplace)
 * @param deltaBar      the slack of the advanced composition (the paper: e^-5)
 * @param warmStart     epsilon spent before by a private warm start (0 for none), counted in every total
 * @param budgets       budgets[i][k]: agent i's budget at its k-th wake-up (0: it does not update then)
 * @param allocation    how the budgets were split
 */
public record ReleasePlan(ReleaseMechanism mechanism, double lipschitz, double epsilonBar, double releaseDelta, double deltaBar,
                          double warmStart, double[][] budgets, BudgetAllocation allocation) {

    public ReleasePlan {
        Objects.requireNonNull(mechanism, "mechanism");
        Objects.requireNonNull(allocation, "allocation");
        if (!(lipschitz > 0) || Double.isInfinite(lipschitz)) {
            throw new IllegalArgumentException("L_0 must be positive and finite, got " + lipschitz);
        }
        if (!(deltaBar >= 0 && deltaBar < 1)) {
            throw new IllegalArgumentException("delta-bar must lie in [0, 1), got " + deltaBar);
        }
        if (!(warmStart >= 0) || Double.isInfinite(warmStart)) {
            throw new IllegalArgumentException("the warm start's epsilon must be finite and >= 0, got " + warmStart);
        }
        budgets = budgets.clone();
    }

    /**
     * The plan of a schedule.
     *
     * @param releases T_i of the equal split (the paper: T / n)
     */
    public static ReleasePlan of(PersonalizedProblem problem, int[] schedule, ReleaseMechanism mechanism, double lipschitz,
                                 double epsilonBar, BudgetAllocation allocation, int releases, double releaseDelta,
                                 double deltaBar, double warmStart) {
        int n = problem.agentCount();
        double rate = 1 - problem.strongConvexity() / (n * problem.maxBlockLipschitz());
        double[][] budgets = new double[n][];
        for (int i = 0; i < n; i++) {
            budgets[i] = allocation.budgets(epsilonBar, WakeSchedule.ticksOf(schedule, i), releases, rate);
        }
        return new ReleasePlan(mechanism, lipschitz, epsilonBar, mechanism == ReleaseMechanism.GAUSSIAN ? releaseDelta : 0,
                deltaBar, warmStart, budgets, allocation);
    }

    /** Agent i's budget at its k-th wake-up (k from 0; 0 beyond its planned wake-ups). */
    public double budget(int agent, long wake) {
        return wake < budgets[agent].length ? budgets[agent][(int) wake] : 0;
    }

    /** The budgets of agent i's first {@code wakes} wake-ups that were releases. */
    public double[] released(int agent, long wakes) {
        return java.util.Arrays.stream(budgets[agent], 0, (int) Math.min(wakes, budgets[agent].length)).filter(e -> e > 0).toArray();
    }

    /** Plain composition: the warm start plus the sum of the releases' epsilons. */
    public double epsilonSum(int agent, long wakes) {
        return warmStart + java.util.Arrays.stream(released(agent, wakes)).sum();
    }

    /**
     * The advanced composition (spec 2.3's three-way minimum at delta-bar) of the releases, plus the warm start; for
     * Gaussian releases the epsilons are those of each (epsilon_t, delta_t) release.
     */
    public double epsilonAdvanced(int agent, long wakes) {
        return warmStart + AdvancedComposition.epsilon(released(agent, wakes), deltaBar);
    }

    /** The delta of {@link #epsilonAdvanced}: {@code 1 - (1 - delta-bar) prod_t (1 - delta_t)}. */
    public double deltaAdvanced(int agent, long wakes) {
        double[] deltas = new double[released(agent, wakes).length];
        java.util.Arrays.fill(deltas, releaseDelta);
        return AdvancedComposition.totalDelta(deltaBar, deltas);
    }

    /** One line for statements. */
    public String describe() {
        return String.format(Locale.ROOT, "%s releases of the mean local gradient (sensitivity 2 L_0 / m_i, L_0 = %s), %s split of"
                        + " epsilon-bar = %s per agent%s%s", mechanism.cliName(), lipschitz, allocation.cliName(), epsilonBar,
                mechanism == ReleaseMechanism.GAUSSIAN ? ", delta " + releaseDelta + " per release" : "",
                warmStart > 0 ? ", after a private warm start of epsilon " + warmStart : "");
    }
}
