package org.dpdl4j.protocol.personalized;

import static org.dpdl4j.runtime.options.ResumeRule.IDENTITY;
import static org.dpdl4j.runtime.options.ResumeRule.MECHANISM;

import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.ValueType;

/** The options of the personalized protocols (coordinate descent, its private update, model propagation). */
public final class PersonalizedOptions {
    private PersonalizedOptions() {
    }

    public static final RunOption<Double> TRADE_OFF = RunOption.of("trade-off", "MU", ValueType.realAbove(0, 1e9), IDENTITY,
            "mu > 0 of the joint objective: the weight of every user's local loss against agreeing with similar users; default 1.");
    public static final RunOption<Long> RELEASES = RunOption.of("releases", "T_I", ValueType.integer(1, Integer.MAX_VALUE), MECHANISM,
            "Releases per user T_i over which its epsilon is split (a user stops updating after them); default: the ticks"
                    + " over the users, rounded up (every user's expected number of wake-ups).");
    public static final RunOption<ReleaseMechanism> RELEASE = RunOption.of("release", "MECHANISM", ValueType.named(
                    ReleaseMechanism.class, "one of laplace, gaussian", ReleaseMechanism::parse, ReleaseMechanism::cliName), MECHANISM,
            "The noise on every local gradient: laplace (pure DP; features must have L1 norm <= 1, default) or gaussian"
                    + " (L2 norm <= 1; every release needs epsilon < 1).");
    public static final RunOption<BudgetAllocation> ALLOCATION = RunOption.of("allocation", "SPLIT", ValueType.named(
                    BudgetAllocation.class, "one of equal, optimal", BudgetAllocation::parse, BudgetAllocation::cliName), MECHANISM,
            "How a user's epsilon is split over its releases: equal (default) or optimal (Proposition 2: decreasing"
                    + " budgets over the ticks at which it wakes).");
    public static final RunOption<Double> RELEASE_DELTA = RunOption.of("release-delta", "DELTA", ValueType.realBetween(0, 1),
            MECHANISM, "--release gaussian: the delta of every release; default 1e-6.");
    public static final RunOption<Double> ADMM_PENALTY = RunOption.of("admm-rho", "RHO", ValueType.realAbove(0, 1e9), IDENTITY,
            "personalized-admm: the ADMM penalty rho > 0; default 0.1.");
    public static final RunOption<Long> LOCAL_STEPS = RunOption.of("admm-local-steps", "K", ValueType.integer(1, 1_000_000), IDENTITY,
            "personalized-admm: gradient steps on each endpoint's augmented Lagrangian per iteration; default 10 (the paper's).");
}
