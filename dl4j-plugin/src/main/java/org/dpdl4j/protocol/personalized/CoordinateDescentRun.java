package org.dpdl4j.protocol.personalized;

import java.util.List;
import java.util.Locale;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.ZCdpEvent;
import org.dpdl4j.privacy.ledger.Charge;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.LedgerStatement;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Asynchronous block coordinate descent on the joint objective (spec 6.2), non-private (5) or private (6). At every
 * tick the scheduled agent i sets
 * <pre>
 *   Theta_i = (1 - alpha_i) Theta_i + alpha_i ( sum_j (W_ij / D_ii) Theta_j - mu c_i (grad L_i(Theta_i) + eta) ),
 * </pre>
 * with {@code eta = 0} or the noise of its {@link ReleasePlan} (Laplace or Gaussian of the scale its budget for this
 * wake-up gives), keeps the result and broadcasts it to its neighbours. Under a plan an agent whose budget for a
 * wake-up is 0 (its releases are done) skips it: it no longer updates or sends.
 */
public final class CoordinateDescentRun extends PersonalizedRun {
    /** The non-private protocol's name. */
    public static final String CD = "personalized-cd";
    /** The private protocol's name. */
    public static final String PRIVATE_CD = "dp-personalized-cd";

    private final ReleasePlan plan;
    private final NoiseStreams streams;
    private final String mechanism;
    /** Whether the ledger holds the plan's warm start (charged before the first release, or on resuming a run without it). */
    private boolean warmStartCharged;

    /**
     * @param plan    the privacy plan, null for the non-private algorithm
     * @param streams the agents' noise streams (used with a plan)
     * @param ledger  the ledger (with a plan), or null
     */
    public CoordinateDescentRun(RunSettings settings, RunLedger ledger, PersonalizedProblem problem, INDArray start, int[] schedule,
                                ReleasePlan plan, NoiseStreams streams) {
        super(plan == null ? CD : PRIVATE_CD, withBound(settings, problem), ledger, problem, start, schedule);
        if ((plan == null) != (ledger == null) || (plan != null && streams == null)) {
            throw new IllegalArgumentException("private coordinate descent needs its plan, a ledger and noise streams; the"
                    + " non-private one none of them");
        }
        if (plan != null && plan.budgets().length != problem.agentCount()) {
            throw new IllegalArgumentException("the plan is for " + plan.budgets().length + " agents, the problem has "
                    + problem.agentCount());
        }
        if (plan != null) {
            for (int i = 0; i < problem.agentCount(); i++) {
                requireBoundedFeatures(problem.agent(i), i, plan.mechanism() == ReleaseMechanism.LAPLACE, plan.lipschitz());
            }
        }
        this.plan = plan;
        this.streams = streams;
        this.mechanism = plan == null ? null : plan.describe();
        String unpriced = notAGuarantee(problem);
        if (ledger != null && unpriced != null) {
            ledger.markNotAGuarantee(unpriced);
        }
    }

    /**
     * Why a private run on {@code problem} has an epsilon that is not a guarantee, or null when it is: its update
     * weights alpha_i, which scale the noise on every released model, and the budgets' split follow each agent's
     * smoothness computed from its own records (the paper's choice), which the ledger does not price.
     */
    public static String notAGuarantee(PersonalizedProblem problem) {
        return !Double.isNaN(problem.featureNormBound()) ? null : "each agent's update weight alpha_i, which scales the noise on"
                + " its released models, and the optimal allocation's split of the budgets follow the smoothness L_i^loc"
                + " computed from the agents' own records, as in the paper; the releases depend on them and the ledger does not"
                + " price them. --feature-norm-bound B (withPublicSmoothness(B)) takes them from a public bound instead, and then"
                + " the epsilon is a guarantee";
    }

    @Override
    protected void takeStep(long k) {
        if (plan != null && plan.warmStart() > 0 && !warmStartCharged) {
            spend(warmStart(plan));
            warmStartCharged = true;
        }
        int i = schedule[(int) k];
        double epsilon = plan == null ? 0 : plan.budget(i, wakes[i]);
        if (plan != null && epsilon == 0) {
            wake(i, false);
            measuredNoLoss();
            return;
        }
        double scale = 0;
        if (plan != null) {
            int m = problem.agent(i).size();
            scale = plan.mechanism().scale(epsilon, plan.releaseDelta(), plan.lipschitz(), m);
            spend(List.of(new Charge(i, plan.mechanism().event(scale, plan.lipschitz(), m), mechanism)));
        }
        INDArray own = models.getRow(i).reshape(problem.dimension());
        INDArray gradient = problem.localGradient(i, own);
        if (plan != null) {
            plan.mechanism().addNoise(streams.privateNoise(i, k), gradient, scale);
        }
        double alpha = problem.alpha(i);
        INDArray next = own.mul(1 - alpha).addi(problem.neighbourAverage(i, models)
                .subi(gradient.muli(problem.mu() * problem.confidence(i))).muli(alpha));
        models.putRow(i, next.reshape(1, problem.dimension()));
        wake(i, true);
        measuredLoss(problem.localLoss(i, next));
    }

    /**
     * Private coordinate descent whose ledger is the standard one under replace-one neighbours, without a budget stop
     * (the plan fixes every release in advance), reporting at {@code delta}.
     *
     * @param secure whether the streams are secure (the ledger warns about seeded noise otherwise)
     */
    public static CoordinateDescentRun withStandardLedger(RunSettings settings, PersonalizedProblem problem, INDArray start,
                                                          int[] schedule, ReleasePlan plan, NoiseStreams streams, double delta,
                                                          boolean secure) {
        return withLedger(settings, problem, start, schedule, plan, streams, delta, secure, AccountantFactory.standard());
    }

    /** {@link #withStandardLedger} with its ledger priced by {@code accountants}. */
    public static CoordinateDescentRun withLedger(RunSettings settings, PersonalizedProblem problem, INDArray start, int[] schedule,
                                                  ReleasePlan plan, NoiseStreams streams, double delta, boolean secure,
                                                  AccountantFactory accountants) {
        RunLedger ledger = new RunLedger(new LedgerAccounting(accountants, NeighbouringRelation.REPLACE_ONE),
                PrivacyBudget.unlimited(delta), secure);
        return new CoordinateDescentRun(settings, ledger, problem, start, schedule, plan, streams);
    }

    /**
     * The logistic loss is L_0-Lipschitz in a norm when every feature row's dual norm is at most L_0 (L1 rows for the
     * Laplace release's L1 sensitivity, L2 rows for the Gaussian's): otherwise the calibration would under-state the
     * sensitivity.
     */
    static void requireBoundedFeatures(AgentData data, int agent, boolean l1, double lipschitz) {
        double largest = l1 ? data.maxL1Norm() : data.maxL2Norm();
        if (largest > lipschitz * (1 + 1e-9)) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "agent %d has a feature row of %s norm %.6g > L_0 = %s:"
                    + " the logistic loss is then not L_0-Lipschitz and the noise would be too small; scale the features to norm <= %s"
                    + " or raise L_0", agent, l1 ? "L1" : "L2", largest, lipschitz, lipschitz));
        }
    }

    /** Every release charges the woken agent as its plan says; wake-ups without a budget charge nothing. */
    @Override
    public java.util.Optional<PrivacyLedger> plannedLedger() {
        return plan == null ? java.util.Optional.empty()
                : java.util.Optional.of(plannedLedger(problem, schedule, plan, ledger().orElseThrow().secureNoise()));
    }

    /**
     * The ledger of a private run on {@code schedule} once every tick is taken, from the plan and the agents' sizes
     * alone: each tick charges what {@link #takeStep} spends then, so the run and its pricing cannot disagree.
     */
    static PrivacyLedger plannedLedger(PersonalizedProblem problem, int[] schedule, ReleasePlan plan, boolean secureNoise) {
        // the k-th tick is its agent's wakeIndex[k]-th wake-up, counting skipped ones, as wake() counts them
        long[] seen = new long[problem.agentCount()];
        long[] wakeIndex = new long[schedule.length];
        for (int k = 0; k < schedule.length; k++) {
            wakeIndex[k] = seen[schedule[k]]++;
        }
        String mechanism = plan.describe();
        return PrivacyLedger.planned(schedule.length, k -> {
            int i = schedule[(int) k];
            double epsilon = plan.budget(i, wakeIndex[(int) k]);
            List<Charge> charges = new java.util.ArrayList<>();
            if (k == 0 && plan.warmStart() > 0) {
                charges.addAll(warmStart(plan));
            }
            if (epsilon != 0) {
                charges.add(charge(plan, i, problem.agent(i).size(), epsilon, mechanism));
            }
            return charges;
        }, secureNoise);
    }

    /**
     * The private warm start the plan counts, charged to every agent before the first tick: a pure epsilon-DP release
     * is (epsilon^2 / 2)-zCDP (Bun and Steinke 2016), whatever its mechanism, so the ledger can compose it.
     */
    private static List<Charge> warmStart(ReleasePlan plan) {
        double epsilon = plan.warmStart();
        return List.of(Charge.ofAll(new ZCdpEvent(epsilon * epsilon / 2), String.format(Locale.ROOT,
                "private warm start (pure epsilon = %.6g, as its zCDP bound)", epsilon)));
    }

    /** Agent i's release at budget {@code epsilon}: what both the step and its pricing charge. */
    private static Charge charge(ReleasePlan plan, int agent, int size, double epsilon, String mechanism) {
        double scale = plan.mechanism().scale(epsilon, plan.releaseDelta(), plan.lipschitz(), size);
        return new Charge(agent, plan.mechanism().event(scale, plan.lipschitz(), size), mechanism);
    }

    /** The settings with the problem's public feature bound, so that a library run's resume sees it as a command line's does. */
    private static RunSettings withBound(RunSettings settings, PersonalizedProblem problem) {
        double bound = problem.featureNormBound();
        return Double.isNaN(bound) || settings.has(RunOptions.FEATURE_NORM_BOUND) ? settings
                : settings.with(RunOptions.FEATURE_NORM_BOUND, bound);
    }

    /**
     * The feature norm bound cannot change on resume: the saved models were made with the update weights of one bound
     * (or of the agents' own smoothness, "" here), and the statement says which the whole run followed.
     */
    @Override
    public java.util.Map<String, String> settingsFixedOnResume() {
        return java.util.Map.of(RunOptions.FEATURE_NORM_BOUND.name(), "");
    }

    @Override
    public RunState state() {
        RunState base = super.state();
        if (plan == null) {
            return base;
        }
        return base.toBuilder().array("released_budgets", Nd4j.createFromArray(releasedBudgets(wakes)))
                .number("warm_start", plan.warmStart()).number("release_delta", plan.releaseDelta())
                .number("plan_lipschitz", plan.lipschitz()).number("plan_mechanism", plan.mechanism().ordinal())
                .number("warm_start_charged", warmStartCharged ? 1 : 0).build();
    }

    /**
     * Refuses a saved run whose releases this run's plan would price otherwise: the statement and {@link #epsilon()} sum
     * each agent's budgets from the plan, so a resume that changed the plan (another --epsilon, --releases, --allocation,
     * --release) would re-price the releases made before it. Checked before anything is restored.
     */
    @Override
    protected void restoreState(RunState state, long completed) {
        if (plan != null) {
            if (!state.arrays().containsKey("released_budgets")) {
                throw new IllegalArgumentException("the saved run is of an earlier version that did not record the budgets"
                        + " of its releases, so this run cannot check that it would price them as they were spent; start a"
                        + " new run");
            }
            long[] savedWakes = state.array("wakes").toLongVector();
            if (savedWakes.length != wakes.length) {
                throw new IllegalArgumentException("the saved run has " + savedWakes.length + " agents, this one " + wakes.length);
            }
            double[] saved = state.array("released_budgets").toDoubleVector();
            double[] now = releasedBudgets(savedWakes);
            boolean same = java.util.Arrays.equals(saved, now) && state.doubleValue("warm_start") == plan.warmStart()
                    && state.doubleValue("release_delta") == plan.releaseDelta()
                    && state.doubleValue("plan_lipschitz") == plan.lipschitz()
                    && state.longValue("plan_mechanism") == plan.mechanism().ordinal();
            if (!same) {
                throw new IllegalArgumentException("the saved run's releases were priced by another release plan than this"
                        + " run's (budgets, warm start, release delta, L_0 or mechanism differ): this protocol reports each"
                        + " agent's epsilon from its plan, so a resume keeps the plan; resume with the saved --epsilon,"
                        + " --releases, --allocation, --release and --feature-norm-bound, or start a new run");
            }
        }
        // a checkpoint saved before the warm start was charged to the ledger has none: it is charged at the next step
        warmStartCharged = state.numbers().containsKey("warm_start_charged") && state.longValue("warm_start_charged") == 1;
        super.restoreState(state, completed);
    }

    /** Every agent's budgets at its first {@code wakesDone[i]} wake-ups, agent after agent (0 where it did not release). */
    private double[] releasedBudgets(long[] wakesDone) {
        int total = 0;
        for (int i = 0; i < wakesDone.length; i++) {
            total += (int) Math.min(wakesDone[i], plan.budgets()[i].length);
        }
        double[] out = new double[total + wakesDone.length];
        int k = 0;
        for (int i = 0; i < wakesDone.length; i++) {
            int n = (int) Math.min(wakesDone[i], plan.budgets()[i].length);
            out[k++] = n;   // each agent's count first, so two layouts of the same values differ
            System.arraycopy(plan.budgets()[i], 0, out, k, n);
            k += n;
        }
        return out;
    }

    /** The privacy plan (null for the non-private run). */
    public ReleasePlan plan() {
        return plan;
    }

    /** Agent i's epsilon so far by plain composition (warm start included). */
    public double epsilonSum(int agent) {
        return plan.epsilonSum(agent, wakes[agent]);
    }

    /** Agent i's epsilon so far by the advanced composition at delta-bar (warm start included). */
    public double epsilonAdvanced(int agent) {
        return plan.epsilonAdvanced(agent, wakes[agent]);
    }

    /** The worst agent's advanced-composition epsilon so far (+Infinity without privacy). */
    public double worstEpsilonAdvanced() {
        if (plan == null) {
            return Double.POSITIVE_INFINITY;
        }
        double worst = 0;
        for (int i = 0; i < problem.agentCount(); i++) {
            worst = Math.max(worst, epsilonAdvanced(i));
        }
        return worst;
    }

    /** Releases each agent has made so far. */
    public long[] releases() {
        long[] r = new long[problem.agentCount()];
        for (int i = 0; i < r.length; i++) {
            r[i] = plan == null ? wakes[i] : plan.released(i, wakes[i]).length;
        }
        return r;
    }

    /** The worst agent's plain-composition epsilon: the conservative figure the run reports (+Infinity without privacy). */
    @Override
    public double epsilon() {
        if (plan == null) {
            return Double.POSITIVE_INFINITY;
        }
        double worst = 0;
        for (int i = 0; i < problem.agentCount(); i++) {
            worst = Math.max(worst, epsilonSum(i));
        }
        return worst;
    }

    @Override
    public java.util.Map<String, Object> resolved() {
        java.util.Map<String, Object> r = super.resolved();
        if (plan != null) {
            r.put("mechanism", plan.mechanism().cliName());
            r.put("epsilonBar", plan.epsilonBar());
            r.put("allocation", plan.allocation().cliName());
            r.put("lipschitz", plan.lipschitz());
            r.put("deltaBar", plan.deltaBar());
            r.put("warmStartEpsilon", plan.warmStart());
        }
        return r;
    }

    @Override
    public String privacyStatement() {
        if (plan == null) {
            return "";
        }
        int n = problem.agentCount();
        double[] sums = new double[n];
        double[] advanced = new double[n];
        int worstSum = 0;
        int worstAdvanced = 0;
        double deltaAdvanced = 0;   // the guarantee is for every agent: the largest of their deltas
        for (int i = 0; i < n; i++) {
            sums[i] = epsilonSum(i);
            advanced[i] = epsilonAdvanced(i);
            worstSum = sums[i] > sums[worstSum] ? i : worstSum;
            worstAdvanced = advanced[i] > advanced[worstAdvanced] ? i : worstAdvanced;
            deltaAdvanced = Math.max(deltaAdvanced, plan.deltaAdvanced(i, wakes[i]));
        }
        long[] released = releases();
        long most = java.util.Arrays.stream(released).max().orElse(0);
        // every agent's releases compose to its own delta: the guarantee for all takes the most releases' delta, which
        // need not be the agent of the largest epsilon (the optimal allocation gives every agent the same sum)
        String sumDelta = plan.mechanism() == ReleaseMechanism.LAPLACE ? "0"
                : EpsilonFormat.upwardSignificant(most * plan.releaseDelta(), 3);
        RunLedger l = ledger().orElseThrow();
        return LedgerStatement.resumedPreamble(l) + String.format(Locale.ROOT, "Privacy statement: private personalized"
                        + " coordinate descent, record-level DP of each agent's broadcast models against everything sent on the network, all other agents colluding (replace-one)%n"
                        + "  %s%n  %d of %d ticks done; the most releases by one agent: %d%n"
                        + "  The run's epsilon (%s): (%s, %s)-DP for every agent, the plain composition of its"
                        + " releases (agent %d has the largest epsilon; the delta is the most releases')%n"
                        + "  By the advanced composition (three-way minimum, delta-bar = %s): (%s, %s)-DP for"
                        + " every agent (agent %d has the largest epsilon; the delta is the largest of the agents')%n"
                        + "  The ledger below prices the same releases (by %s): epsilon = %s at delta = %s, the figure"
                        + " the progress bar and the metrics show. It is a third bound of the same releases, not an extra cost;"
                        + " %s%n",
                mechanism, completedSteps(), plannedSteps(), most, notAGuarantee(problem) == null ? "the guarantee"
                        : "not a guarantee: see the WARNING", EpsilonFormat.upward(sums[worstSum], 6), sumDelta, worstSum,
                EpsilonFormat.upwardSignificant(plan.deltaBar(), 3), EpsilonFormat.upward(advanced[worstAdvanced], 6),
                EpsilonFormat.upwardSignificant(deltaAdvanced, 3), worstAdvanced,
                l.accounting().method(), EpsilonFormat.upward(l.epsilon()),
                l.delta(), l.epsilon() > sums[worstSum]
                        ? String.format(Locale.ROOT, "here it is looser than the plain composition above, (%s, %s)-DP.",
                                EpsilonFormat.upward(sums[worstSum], 6), sumDelta)
                        : "at its delta it may be the tightest of the three, and all three hold.")
                + smoothnessLine() + LedgerStatement.text(l);
    }

    /** What the ledger covers of the update weights and the budgets' split: where the local smoothness comes from. */
    private String smoothnessLine() {
        double bound = problem.featureNormBound();
        if (Double.isNaN(bound)) {
            return "  Not accounted: each agent's update weight alpha_i, hence the noise on its released model, follows the"
                    + " smoothness L_i^loc computed from its own data, and the optimal allocation's split of the budgets follows"
                    + " the agents' largest L_i (the paper's choices), so the epsilon is not a guarantee (see the WARNING)."
                    + " --feature-norm-bound B takes them from a public bound instead.\n";
        }
        return String.format(Locale.ROOT, "  Update weights alpha_i and the budgets' split follow the public feature bound"
                + " ||x|| <= %s (L_i^loc = B^2/4 + 2 lambda_i), the record counts and the similarity graph, not the records'"
                + " values: the ledger covers everything released.%n", bound);
    }
}
