package org.dpdl4j.protocol.personalized;

import static org.dpdl4j.protocol.personalized.PersonalizedOptions.ADMM_PENALTY;
import static org.dpdl4j.protocol.personalized.PersonalizedOptions.ALLOCATION;
import static org.dpdl4j.protocol.personalized.PersonalizedOptions.LOCAL_STEPS;
import static org.dpdl4j.protocol.personalized.PersonalizedOptions.RELEASE;
import static org.dpdl4j.protocol.personalized.PersonalizedOptions.RELEASES;
import static org.dpdl4j.protocol.personalized.PersonalizedOptions.RELEASE_DELTA;
import static org.dpdl4j.protocol.personalized.PersonalizedOptions.TRADE_OFF;
import static org.dpdl4j.runtime.options.RunOptions.DELTA;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON;
import static org.dpdl4j.runtime.options.RunOptions.NOISE;
import static org.dpdl4j.runtime.options.RunOptions.ROUNDS;
import static org.dpdl4j.runtime.options.RunOptions.SEED;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.ConfiguredProtocol;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The personalized protocols as registered protocols: non-private and private coordinate descent and model
 * propagation, on a task whose users come with a similarity graph (the {@code collaborative} data set). Every user's
 * confidence is {@code m_i / max_j m_j} and its regulariser {@code lambda_i = 1 / m_i}, as in the paper.
 */
public final class PersonalizedProtocol implements ConfiguredProtocol<PersonalizedRunSpec> {
    /** Which algorithm. */
    public enum Kind { CD, PRIVATE_CD, MODEL_PROPAGATION, ADMM }

    private final Kind kind;

    public PersonalizedProtocol(Kind kind) {
        this.kind = kind;
    }

    @Override
    public String name() {
        return switch (kind) {
            case CD -> CoordinateDescentRun.CD;
            case PRIVATE_CD -> CoordinateDescentRun.PRIVATE_CD;
            case MODEL_PROPAGATION -> ModelPropagationRun.NAME;
            case ADMM -> GossipAdmmRun.NAME;
        };
    }

    @Override
    public String family() {
        return "personalized";
    }

    @Override
    public String summary() {
        return switch (kind) {
            case CD -> "Personalized learning (Bellet et al.): every user its own model, by asynchronous block coordinate descent";
            case PRIVATE_CD -> "Private personalized coordinate descent: Laplace (or Gaussian) noise on every local gradient,"
                    + " each user's epsilon split over its releases";
            case MODEL_PROPAGATION -> "Model propagation: users smooth their purely local models over the similarity graph";
            case ADMM -> "Gossip ADMM (Vanhaesebrouck et al.) on the same objective, from the local models: the baseline of CD";
        };
    }

    @Override
    public boolean isPrivate() {
        return kind == Kind.PRIVATE_CD;
    }

    @Override
    public boolean prefersConvexModel() {
        return true;
    }

    @Override
    public List<RunOption<?>> options() {
        List<RunOption<?>> out = new ArrayList<>(List.of(SEED, ROUNDS, TRADE_OFF));
        if (kind == Kind.PRIVATE_CD) {
            out.addAll(List.of(EPSILON, DELTA, RELEASES, RELEASE, ALLOCATION, RELEASE_DELTA, NOISE, RunOptions.ACCOUNTANT,
                    RunOptions.FEATURE_NORM_BOUND));
        }
        if (kind == Kind.ADMM) {
            out.addAll(List.of(ADMM_PENALTY, LOCAL_STEPS));
        }
        return out;
    }

    @Override
    public MemoryEstimate memory(RunSettings s, RunInputs inputs) {
        java.util.List<NodeData> users = inputs.hasUsers() ? inputs.users() : java.util.List.of();
        long links = 0;
        if (inputs.hasUserGraph()) {
            for (double[] row : inputs.userGraph()) {
                links += java.util.Arrays.stream(row).filter(v -> v != 0).count();
            }
        }
        return new PersonalizedMemory(name(), kind, users.isEmpty() ? DataShape.of(inputs.train()) : DataShape.of(users), users.size(),
                s.get(ROUNDS, 1L), links).estimate();
    }

    /** The run's description from the settings and the users' data, checked. */
    @Override
    public PersonalizedRunSpec config(RunSettings s, RunInputs inputs) {
        return setup(s, inputs);
    }

    @Override
    public TrainingRun create(PersonalizedRunSpec setup, RunInputs inputs, RunSettings recorded) {
        RunSettings s = recorded != null ? recorded : RunSettings.empty();
        PersonalizedProblem problem = setup.problem();
        long ticks = setup.ticks();
        NoiseStreams streams = setup.noise().streams(problem.agentCount(), setup.seed());
        java.util.random.RandomGenerator draws = streams.sampling(0, 0);
        return switch (kind) {
            case CD -> new CoordinateDescentRun(s, null, problem, problem.zeros(), WakeSchedule.draw(problem.agentCount(), ticks, draws),
                    null, null);
            case MODEL_PROPAGATION -> new ModelPropagationRun(s, problem, LocalModels.solve(problem),
                    WakeSchedule.draw(problem.agentCount(), ticks, draws));
            case PRIVATE_CD -> {
                int[] schedule = WakeSchedule.draw(problem.agentCount(), ticks, draws);
                yield CoordinateDescentRun.withLedger(s, problem, problem.zeros(), schedule, setup.releases().plan(problem, schedule),
                        streams, setup.releases().delta(), setup.noise().isSecure(), setup.accountants());
            }
            // one iteration = one random edge
            case ADMM -> new GossipAdmmRun(s, problem, LocalModels.solve(problem), GossipAdmmRun.drawSchedule(problem, ticks, draws),
                    setup.admmPenalty(), setup.localSteps());
        };
    }

    /**
     * The ledger of {@link #create}'s private run, from the settings and the users' sizes: no run is built, nothing
     * trained. With {@code --noise seeded} the wake-up schedule is drawn from the seed alone, exactly as {@code create}
     * draws it, and each wake-up's charge follows from the release plan and the user's size. Empty with secure noise:
     * the schedule, which decides how often each user wakes and so what it spends, is then drawn from secret randomness
     * when the run is built. Empty for the non-private protocols.
     */
    @Override
    public Optional<PlannedLedger> plannedLedger(PersonalizedRunSpec setup, RunInputs inputs) {
        if (kind != Kind.PRIVATE_CD) {
            return Optional.empty();
        }
        PersonalizedProblem problem = setup.problem();
        int n = problem.agentCount();
        boolean secure = setup.noise().isSecure();
        int[] schedule;
        if (secure) {
            // refuse what create refuses once it has drawn the schedule: the clock here, and below a plan on no
            // wake-ups checks the budget, the releases and the rate as a real one does
            WakeSchedule.requireClock(n, setup.ticks());
            schedule = new int[0];
        } else {
            schedule = WakeSchedule.draw(n, setup.ticks(), setup.noise().streams(n, setup.seed()).sampling(0, 0));
        }
        ReleasePlan plan = setup.releases().plan(problem, schedule);
        // the run's constructor refuses features the plan's L_0 does not bound; pricing refuses them alike
        for (int i = 0; i < n; i++) {
            CoordinateDescentRun.requireBoundedFeatures(problem.agent(i), i, plan.mechanism() == ReleaseMechanism.LAPLACE,
                    plan.lipschitz());
        }
        if (secure) {
            return Optional.empty();
        }
        return Optional.of(new PlannedLedger(CoordinateDescentRun.plannedLedger(problem, schedule, plan, false),
                NeighbouringRelation.REPLACE_ONE, CoordinateDescentRun.notAGuarantee(problem)));
    }

    private PersonalizedRunSpec setup(RunSettings s, RunInputs inputs) {
        if (!inputs.hasUserGraph()) {
            throw new IllegalArgumentException(name() + " learns one model per user on a similarity graph between users; this data"
                    + " set has neither: use --dataset collaborative");
        }
        List<AgentData> agents = inputs.users().stream().map(PersonalizedProtocol::agent).toList();
        PersonalizedProblem own = new PersonalizedProblem(agents, inputs.userGraph(), PersonalizedProblem.inverseSizes(agents),
                s.get(TRADE_OFF, 1.0));
        PersonalizedProblem problem = kind == Kind.PRIVATE_CD && s.has(RunOptions.FEATURE_NORM_BOUND)
                ? own.withPublicSmoothness(s.get(RunOptions.FEATURE_NORM_BOUND).orElseThrow()) : own;
        int n = problem.agentCount();
        long ticks = s.require(ROUNDS, name() + " needs the number of ticks (--rounds): one user wakes and updates per tick");
        long seed = s.get(SEED, 1L);
        NoiseKind noise = RunOptions.noiseKind(s, isPrivate());
        PersonalizedRunSpec.Releases releases = null;
        if (kind == Kind.PRIVATE_CD) {
            double epsilonBar = s.require(EPSILON, name() + " needs every user's budget epsilon-bar (--epsilon)");
            ReleaseMechanism mechanism = s.get(RELEASE, ReleaseMechanism.LAPLACE);
            if (mechanism == ReleaseMechanism.LAPLACE && s.has(RELEASE_DELTA)) {
                throw RELEASE_DELTA.invalid("--release-delta has no effect with --release laplace (pure DP); drop it");
            }
            int count = Math.toIntExact(s.get(RELEASES, (ticks + n - 1) / n));
            releases = new PersonalizedRunSpec.Releases(epsilonBar, mechanism, s.get(ALLOCATION, BudgetAllocation.EQUAL_SPLIT), count,
                    s.get(RELEASE_DELTA, 1e-6), s.get(DELTA, 1e-5));
        }
        return new PersonalizedRunSpec(problem, ticks, seed, noise, releases, RunOptions.accountants(s), s.get(ADMM_PENALTY, 0.1),
                Math.toIntExact(s.get(LOCAL_STEPS, 10L)));
    }

    /** A user's examples with 0/1 labels [m, 1] as the +-1 labels of the logistic loss. */
    private static AgentData agent(NodeData user) {
        INDArray labels = user.labels();
        if (labels.size(1) != 1) {
            throw new IllegalArgumentException("personalized learning is binary classification: every user needs labels [m, 1] of 0 and"
                    + " 1, got " + labels.size(1) + " columns");
        }
        double[] values = labels.reshape(labels.length()).toDoubleVector();
        int[] classes = new int[values.length];
        for (int k = 0; k < values.length; k++) {
            if (values[k] != 0 && values[k] != 1) {
                throw new IllegalArgumentException("personalized learning needs labels 0 or 1, got " + values[k] + " at row " + k);
            }
            classes[k] = (int) values[k];
        }
        return AgentData.ofClasses(user.features(), classes);
    }
}
