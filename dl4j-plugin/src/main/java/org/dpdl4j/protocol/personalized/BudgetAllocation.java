package org.dpdl4j.protocol.personalized;

import java.util.Arrays;
import java.util.Locale;
import org.dpdl4j.privacy.accounting.Calibrator;

/**
 * How an agent splits its budget epsilon-bar over its releases (spec 6.4).
 * <ul>
 *   <li>{@link #EQUAL_SPLIT} (the paper's experiments): {@code epsilon-bar / T_i} for each of its first {@code T_i}
 *       wake-ups; the agent stops updating after them.</li>
 *   <li>{@link #OPTIMAL} (Proposition 2): budgets proportional to {@code C^(t/3)} over the ticks t at which it wakes,
 *       {@code C = 1 - sigma / (n L_max)}, normalised to sum to epsilon-bar: decreasing in t.</li>
 * </ul>
 */
public enum BudgetAllocation {
    EQUAL_SPLIT("equal"),
    OPTIMAL("optimal");

    private final String cliName;

    BudgetAllocation(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    /** The allocation of a name ({@code equal} or {@code optimal}). */
    public static BudgetAllocation parse(String name) {
        for (BudgetAllocation a : values()) {
            if (a.cliName.equalsIgnoreCase(name.trim())) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown budget allocation '" + name + "'; use equal or optimal");
    }

    /**
     * The budget of each of the agent's wake-ups (0: no release, the agent skips it).
     *
     * @param epsilonBar the agent's budget over all its releases, > 0
     * @param ticks      the ticks at which the agent wakes, increasing
     * @param releases   T_i, the releases of the equal split (ignored by {@link #OPTIMAL})
     * @param rate       C in (0, 1] of Proposition 2 (ignored by {@link #EQUAL_SPLIT})
     */
    public double[] budgets(double epsilonBar, long[] ticks, int releases, double rate) {
        if (!(epsilonBar > 0) || Double.isInfinite(epsilonBar)) {
            throw new IllegalArgumentException("the budget epsilon-bar must be positive and finite, got " + epsilonBar);
        }
        double[] out = new double[ticks.length];
        switch (this) {
            case EQUAL_SPLIT -> {
                if (releases < 1) {
                    throw new IllegalArgumentException("the equal split needs T_i >= 1 releases per agent, got " + releases);
                }
                for (int k = 0; k < Math.min(releases, ticks.length); k++) {
                    out[k] = epsilonBar / releases;
                }
            }
            case OPTIMAL -> {
                if (!(rate > 0 && rate <= 1)) {
                    throw new IllegalArgumentException(String.format(Locale.ROOT, "Proposition 2's rate C = 1 - sigma/(n L_max)"
                            + " must lie in (0, 1], got %s", rate));
                }
                if (ticks.length == 0) {
                    return out;
                }
                // C^(t/3) relative to the first tick, in logs: the constant (C^(1/3) - 1)/(C^(T/3) - 1) cancels.
                double log = Math.log(rate) / 3;
                double sum = 0;
                for (int k = 0; k < ticks.length; k++) {
                    out[k] = Math.exp(log * (ticks[k] - ticks[0]));
                    sum += out[k];
                }
                for (int k = 0; k < ticks.length; k++) {
                    out[k] *= epsilonBar / sum;
                }
            }
        }
        return withinBudget(out, epsilonBar);
    }

    /**
     * The parts, scaled down (their Laplace noise up) when rounding puts their sum a unit in the last place above
     * epsilon-bar, as {@link Calibrator#safeSide} moves any closed form; parts already within it are kept as they are.
     */
    private static double[] withinBudget(double[] parts, double epsilonBar) {
        double scale = Calibrator.safeSide(1.0, k -> Arrays.stream(parts).map(e -> e / k).sum(), epsilonBar).noise();
        return scale == 1.0 ? parts : Arrays.stream(parts).map(e -> e / scale).toArray();
    }
}
