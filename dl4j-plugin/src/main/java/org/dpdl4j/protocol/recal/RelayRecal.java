package org.dpdl4j.protocol.recal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.dpdl4j.privacy.ledger.LedgerStatement;
import org.dpdl4j.privacy.ledger.PrivacyBudgetExceededException;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * RECAL and DP-RECAL (spec 5.3): the AFBS primal-dual iteration run by relay. A baton {@code (y, s)}, with
 * {@code s} the sum of the published duals, follows a uniform random walk on the graph; only the agent holding it
 * works, on its own block:
 * <pre>
 *   x_i  = x_old - tau_i (grad f_i(x_old) + lam_i)
 *   y    = prox_{gamma g}(y_old + gamma s)
 *   lam  = lam_i + beta_i ((2 x_i - x_old) - (2 y - y_old))          (theta = 2; general theta, mu add (6d))
 *   K_i += 1;  lam_pub = lam + N(0, sigma_i^2 zeta^(K_i - 1))           (DP-RECAL; no noise for RECAL)
 *   s   += lam_pub - lam_i;  lam_i = lam_pub;  pass (y, s) to a uniformly random neighbour
 * </pre>
 * The agent continues from its noisy dual (the noise is coupled into the dynamics, so y needs no noise of its own).
 * One message per iteration, and one agent's O(m_i q c) work: no pass over the other agents.
 *
 * <p>Under a privacy budget an agent whose next publication would take it over the budget stops publishing: it
 * passes the baton on unchanged from then on, and the run lists it in {@link #exhaustedAgents()} and its statement.
 */
public final class RelayRecal extends CompositeRun {
    /** The non-private protocol's name. */
    public static final String RECAL = "recal";
    /** The private protocol's name. */
    public static final String DP_RECAL = "dp-recal";

    private final RecalSteps steps;
    private final int[] path;
    private final double clip;
    private final DecayingNoisePrivacy privacy;
    private final NoiseStreams streams;
    private final String mechanism;
    private final StepOrigin origin;
    private final INDArray x;
    private final INDArray lambda;
    private final INDArray y;
    private final INDArray s;
    private final long[] activations;
    private final boolean[] exhausted;
    private final INDArray grad;
    private final List<java.util.function.Consumer<BatonPublication>> taps = new ArrayList<>();

    /**
     * @param steps   tau, beta, gamma, theta, mu
     * @param path    the active agent of every iteration (drawn independently of the data, {@link BatonWalk})
     * @param clip    G_rec, the bound of every record's gradient (+Infinity without privacy)
     * @param privacy the accounting of DP-RECAL, or null for RECAL
     * @param streams the agents' noise streams (used with privacy)
     * @param ledger  the ledger (with privacy), or null
     * @param origin  where the steps come from, for the statement and the reported step condition
     */
    RelayRecal(String protocol, RunSettings settings, RunLedger ledger, CompositeProblem problem, LinearModel model,
               RecalSteps steps, int[] path, double clip, DecayingNoisePrivacy privacy, NoiseStreams streams,
               StepOrigin origin) {
        super(protocol, settings, ledger, problem, model, path.length);
        if (steps.agents() != problem.agentCount()) {
            throw new IllegalArgumentException("the steps are for " + steps.agents() + " agents but the problem has " + problem.agentCount());
        }
        if ((privacy == null) != (ledger == null)) {
            throw new IllegalArgumentException("DP-RECAL needs its accounting and a ledger, RECAL neither");
        }
        if (privacy != null) {
            requireNoisyBaton(steps);
        }
        this.steps = steps;
        this.path = path.clone();
        this.clip = clip;
        this.privacy = privacy;
        this.streams = streams;
        this.mechanism = privacy == null ? null : privacy.describe();
        this.origin = java.util.Objects.requireNonNull(origin, "origin");
        int n = problem.agentCount();
        this.x = Nd4j.zeros(DataType.DOUBLE, n, problem.rows(), problem.columns());
        this.lambda = Nd4j.zeros(DataType.DOUBLE, n, problem.rows(), problem.columns());
        this.y = problem.zeros();
        this.s = problem.zeros();
        this.grad = problem.zeros();
        this.activations = new long[n];
        this.exhausted = new boolean[n];
    }

    /** @throws IllegalArgumentException when the steps would make the baton carry a noiseless dual */
    static void requireNoisyBaton(RecalSteps steps) {
        if (steps.correctsGlobalVariable()) {
            throw new IllegalArgumentException("with theta = " + steps.theta() + " and mu = " + steps.mu() + " the correction of y"
                    + " carries the active agent's noiseless dual, so the baton would publish its gradient without noise; DP-RECAL"
                    + " needs mu = 0 or theta = 2");
        }
    }

    /**
     * Every iteration charges the active agent its next publication, until an agent's next one would exceed the budget
     * (then it stops publishing): the ledger of the whole path, spent into a fresh ledger of this run's accounting.
     */
    @Override
    public java.util.Optional<org.dpdl4j.privacy.ledger.PrivacyLedger> plannedLedger() {
        if (privacy == null) {
            return java.util.Optional.empty();
        }
        RunLedger own = ledger().orElseThrow();
        return java.util.Optional.of(privacy.plannedRelay(path, new RunLedger(own.accounting(), own.budget(), own.secureNoise())));
    }

    @Override
    protected void takeStep(long k) {
        if (k >= path.length) {
            throw new IllegalStateException("all " + path.length + " iterations are done");
        }
        int i = path[(int) k];
        messages++;   // the baton is passed on in every iteration
        if (exhausted[i]) {
            measuredNoLoss();
            return;
        }
        if (privacy != null) {
            try {
                spend(List.of(privacy.publicationOf(i, activations[i] + 1)));
            } catch (PrivacyBudgetExceededException over) {
                exhausted[i] = true;
                measuredNoLoss();
                return;
            }
        }
        INDArray xi = x.slice(i);
        INDArray li = lambda.slice(i);
        INDArray xOld = xi.dup();
        INDArray yOld = y.dup();
        double loss = problem.agent(i).gradient(xOld, clip, grad);
        INDArray xBar = xOld.sub(grad.addi(li).muli(steps.tau()[i]));
        INDArray yBar = problem.prox(yOld.add(s.mul(steps.gamma())), steps.gamma());
        double theta = steps.theta();
        INDArray lamBar = xBar.sub(yBar).muli(theta).addi(xOld.sub(yOld).muli(1 - theta)).muli(steps.beta()[i]).addi(li);
        INDArray lamNew;
        if (theta == 2) {
            xi.assign(xBar);
            y.assign(yBar);
            lamNew = lamBar;
        } else {
            INDArray dual = lamBar.sub(li);
            double relax = 2 - theta;
            xi.assign(xBar.sub(dual.mul(steps.mu() * relax * steps.tau()[i])));
            y.assign(yBar.add(dual.mul(steps.mu() * relax * steps.gamma())));
            lamNew = lamBar.addi(xBar.sub(xOld).subi(yBar.sub(yOld)).muli((1 - steps.mu()) * relax * steps.beta()[i]));
        }
        activations[i]++;
        double std = privacy == null ? 0 : privacy.std(i, activations[i]);
        if (privacy != null) {
            streams.privateNoise(i, k).addGaussian(lamNew, std);
        }
        INDArray sBefore = taps.isEmpty() ? null : s.dup();
        INDArray dualBefore = taps.isEmpty() ? null : li.dup();
        s.addi(lamNew).subi(li);
        li.assign(lamNew);
        if (!taps.isEmpty()) {
            BatonPublication p = new BatonPublication(k, i, activations[i], xOld, dualBefore, yOld, y.dup(), sBefore,
                    s.dup(), steps.tau()[i], steps.beta()[i], theta, std);
            taps.forEach(t -> t.accept(p));
        }
        measuredLoss(loss / problem.agent(i).size());
    }

    /**
     * Calls {@code tap} after every publication with the baton before and after and the agent's state (copies, made
     * only while a tap is attached). For observers and tests; the run itself never reads what a tap does.
     */
    public void tapPublications(java.util.function.Consumer<BatonPublication> tap) {
        taps.add(java.util.Objects.requireNonNull(tap, "tap"));
    }

    /** The consensus variable y. */
    @Override
    public INDArray output() {
        return y.dup();
    }

    /** {@code s}, the baton's running sum of the published duals (a copy). */
    public INDArray batonSum() {
        return s.dup();
    }

    /** The published duals, one per agent [n, q, c] (a copy). */
    public INDArray publishedDuals() {
        return lambda.dup();
    }

    @Override
    public INDArray localModels() {
        return x.dup();
    }

    /** K_i: how many times each agent has published (a copy). */
    public long[] activations() {
        return activations.clone();
    }

    @Override
    public long lci() {
        long m = 0;
        for (long a : activations) {
            m = Math.max(m, a);
        }
        return m;
    }

    /** The baton's path (a copy). */
    public int[] path() {
        return path.clone();
    }

    /**
     * Agents that stopped publishing because their budget was spent, in words, in the order they stopped (empty when
     * none). Worked out from the saved flags, counts and path, so a resumed run lists the agents stopped before it.
     */
    public List<String> exhaustedAgents() {
        List<long[]> stops = new ArrayList<>();   // {iteration, agent}
        for (int i = 0; i < exhausted.length; i++) {
            if (exhausted[i]) {
                stops.add(new long[] {refusedAt(i), i});
            }
        }
        stops.sort(java.util.Comparator.comparingLong(a -> a[0]));
        List<String> lines = new ArrayList<>();
        for (long[] stop : stops) {
            int i = (int) stop[1];
            lines.add(String.format(Locale.ROOT, "agent %d stopped publishing at iteration %d after %d publications (epsilon %s;"
                    + " one more would exceed the budget %s)", i, stop[0], activations[i],
                    EpsilonFormat.upward(ledger().orElseThrow().spentBy(i).epsilon(), 6), ledger().orElseThrow().budget()));
        }
        return lines;
    }

    /** The iteration (1-based) at which agent i's next publication was refused: its visit after its last publication. */
    private long refusedAt(int agent) {
        long visits = 0;
        for (int k = 0; k < path.length; k++) {
            if (path[k] == agent && ++visits == activations[agent] + 1) {
                return k + 1;
            }
        }
        throw new IllegalStateException("agent " + agent + " is marked stopped but its path has no visit after its "
                + activations[agent] + " publications");
    }

    public RecalSteps steps() {
        return steps;
    }

    /** The accounting of DP-RECAL (null for RECAL). */
    @Override
    public DecayingNoisePrivacy privacy() {
        return privacy;
    }

    @Override
    public double clip() {
        return clip;
    }

    @Override
    protected void protocolValues(java.util.Map<String, Object> r) {
        r.put("plannedLci", BatonWalk.lci(problem.agentCount(), path));
        r.put("gamma", steps.gamma());
        r.put("theta", steps.theta());
        r.put("mu", steps.mu());
        r.put("stepCondition", stepCondition(steps, origin));
    }

    @Override
    public String privacyStatement() {
        if (privacy == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(LedgerStatement.resumedPreamble(ledger().orElseThrow()));
        boolean drift = privacy.growth() == PublicationSensitivity.STATE_DRIFT;
        b.append(String.format(Locale.ROOT, "Privacy statement: DP-RECAL, record-level DP against an eavesdropper on every"
                        + " channel (replace-one adjacency; %s)%n"
                        + "  per publication: %s%n  every record gradient clipped to G_rec = %s; sensitivity Delta_i = 4 beta_i"
                        + " tau_i G_rec%s%n  %d agents, %d of %d iterations done, local communication involvement (LCI) %d%n",
                drift ? "the drift of each agent's unpublished state is priced: least squares, tau_i <= 1/L_i"
                        : "each agent's internal state is conditioned on, as in the paper",
                mechanism, clip, drift ? " at an agent's first publication and Delta_i (m + 1)/2 at its m-th (its state moves"
                        + " by at most 2 tau_i G_rec per publication, its clipped gradient step being nonexpansive)" : " at every"
                        + " publication", problem.agentCount(), completedSteps(), plannedSteps(), lci()));
        for (String e : exhaustedAgents()) {
            b.append("  ").append(e).append(System.lineSeparator());
        }
        b.append(origin.statementLine()).append(System.lineSeparator());
        return b + LedgerStatement.text(ledger().orElseThrow());
    }

    @Override
    public RunState state() {
        RunState.Builder b = RunState.builder().array("x", x).array("lambda", lambda).array("y", y).array("s", s)
                .array("activations", Nd4j.createFromArray(activations)).array("path", Nd4j.createFromArray(path))
                .array("exhausted", Nd4j.createFromArray(flags(exhausted))).number("messages", messages);
        if (privacy != null) {
            boolean drift = privacy.growth() == PublicationSensitivity.STATE_DRIFT;
            b.number(PRICED_WITH_DRIFT, drift ? 1L : 0L);
            if (drift) {
                b.array(DRIFT_TAU, Nd4j.createFromArray(steps.tau())).array(DRIFT_BETA, Nd4j.createFromArray(steps.beta()))
                        .number(DRIFT_CLIP, clip);
            }
        }
        return b.build();
    }

    /**
     * The saved primal and dual steps and clip of a drift-priced run, which its drift was built with (they fix the
     * sensitivity 4 beta tau G_rec too: DP-RECAL runs with theta = 2 or mu = 0).
     */
    private static final String DRIFT_TAU = "driftTau";
    private static final String DRIFT_BETA = "driftBeta";
    private static final String DRIFT_CLIP = "driftClip";

    /**
     * The state's record of how the saved publications were priced (1 with the drift of the state, 0 the paper's way;
     * absent from an earlier version's checkpoints, which priced every run the paper's way).
     */
    private static final String PRICED_WITH_DRIFT = "pricedWithDrift";

    /** @throws IllegalArgumentException when the saved publications were priced by another rule than this run's */
    private void requireSamePricing(RunState state) {
        if (privacy == null) {
            return;
        }
        boolean savedDrift = state.numbers().containsKey(PRICED_WITH_DRIFT) && state.longValue(PRICED_WITH_DRIFT) == 1;
        boolean drift = privacy.growth() == PublicationSensitivity.STATE_DRIFT;
        if (savedDrift && !drift) {
            throw new IllegalArgumentException("the saved run priced its publications with the drift of each agent's state, but"
                    + " this one prices them the paper's way (--paper-accounting, a softmax model or a step scale above 2); an"
                    + " agent's later publications cannot be priced by another rule than its earlier ones. Resume it as it was"
                    + " saved, or start a new run");
        }
        if (!savedDrift && drift) {
            throw new IllegalArgumentException("the saved run priced its publications the paper's way (it ran with"
                    + " --paper-accounting, or was saved by a version before the drift's pricing), but this one prices them with"
                    + " the drift of each agent's state; an agent's later publications cannot be priced by another rule than its"
                    + " earlier ones. Resume it with --paper-accounting (a checkpoint of an earlier version recorded no such"
                    + " setting: allow the mechanism change with it; a finished one cannot be reopened under another pricing),"
                    + " or start a new run");
        }
        // exact equality: the same settings give the same steps; with steps from the agents' data a resume on other
        // hardware may differ in the last bit and is refused (safe)
        if (drift && !(java.util.Arrays.equals(state.array(DRIFT_TAU).toDoubleVector(), steps.tau())
                && state.numbers().containsKey(DRIFT_CLIP) && state.doubleValue(DRIFT_CLIP) == clip
                && java.util.Arrays.equals(state.array(DRIFT_BETA).toDoubleVector(), steps.beta()))) {
            throw new IllegalArgumentException("the saved run's agents published with other steps or clip (another"
                    + " --clip, step scale or feature bound) than this one's; priced with the drift of each agent's state, a"
                    + " publication carries the drift that the agent's earlier steps built up with the clip and steps they ran"
                    + " with, so they cannot change within a run. Resume with the saved settings, or start a new run");
        }
    }

    @Override
    protected void restoreState(RunState state, long completed) {
        requireSamePricing(state);
        if (!java.util.Arrays.equals(state.array("path").toIntVector(), path)) {
            throw new IllegalArgumentException("the saved run's baton followed another path: the path is drawn when a run is set"
                    + " up, from secret randomness when the noise is secure, so such a run cannot be resumed; train it in one go,"
                    + " or use seeded noise (--noise seeded) for a run that can be resumed");
        }
        if (completed > path.length) {
            throw new IllegalArgumentException("the saved run is at iteration " + completed + " but this one has " + path.length);
        }
        x.assign(state.array("x", x.shape()));
        lambda.assign(state.array("lambda", lambda.shape()));
        y.assign(state.array("y", y.shape()));
        s.assign(state.array("s", s.shape()));
        long[] a = state.array("activations").toLongVector();
        System.arraycopy(a, 0, activations, 0, activations.length);
        int[] e = state.array("exhausted").toIntVector();
        for (int i = 0; i < exhausted.length; i++) {
            exhausted[i] = e[i] != 0;
        }
        messages = state.longValue("messages");
    }

    private static int[] flags(boolean[] b) {
        int[] f = new int[b.length];
        for (int i = 0; i < b.length; i++) {
            f[i] = b[i] ? 1 : 0;
        }
        return f;
    }
}
