package org.dpdl4j.protocol.federated;

import static org.dpdl4j.protocol.federated.FederatedOptions.DIAMETER;
import static org.dpdl4j.runtime.options.RunOptions.FEATURE_NORM_BOUND;
import static org.dpdl4j.protocol.federated.FederatedOptions.INIT;
import static org.dpdl4j.protocol.federated.FederatedOptions.LIPSCHITZ;
import static org.dpdl4j.runtime.options.PartyOptions.MACHINES;
import static org.dpdl4j.protocol.federated.FederatedOptions.SMOOTHNESS;
import static org.dpdl4j.runtime.options.RunOptions.BATCH_SIZE;
import static org.dpdl4j.runtime.options.RunOptions.DELTA;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON_BUDGET;
import static org.dpdl4j.runtime.options.RunOptions.NOISE;
import static org.dpdl4j.runtime.options.RunOptions.NOISE_MULTIPLIER;
import static org.dpdl4j.runtime.options.RunOptions.PARTITION;
import static org.dpdl4j.runtime.options.RunOptions.ROUNDS;
import static org.dpdl4j.runtime.options.RunOptions.SEED;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.dpdl4j.optim.DenseNetworkSpec;
import org.dpdl4j.optim.DpModelValidator;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ObserverDeclaration;
import org.dpdl4j.runtime.ConfiguredProtocol;
import org.dpdl4j.runtime.PartySource;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.learning.config.Sgd;

/**
 * mu^2-SGD over M machines (spec 4.3): non-private ({@code mu2-sgd}) or DP-mu^2-FL with an untrusted
 * ({@code mu2-untrusted}) or trusted ({@code mu2-trusted}) server. Every example is used once, so the default number
 * of rounds is one pass over the smallest machine's data; the problem constants come from the options or the data.
 */
public final class Mu2Protocol implements ConfiguredProtocol<Mu2RunSpec> {
    private static final ObserverDeclaration SERVER = new ObserverDeclaration("server",
            "every machine's messages and the query points it broadcasts",
            "knows the query points, the weights, the clip norm and the noise; not the clip factor");
    private static final ObserverDeclaration MACHINE = new ObserverDeclaration("machine",
            "the query points the server broadcasts",
            "another machine; knows the step sizes, the clip norm, the noise and every other machine's data (worst case)");

    /** The split of the data set over the parties when --partition is not given. */
    static final String DEFAULT_PARTITION = "iid";
    /** Machines when --machines is not given. */
    static final long DEFAULT_MACHINES = 10;
    private final ServerTrust trust;

    /** @param trust null for non-private mu^2-SGD */
    public Mu2Protocol(ServerTrust trust) {
        this.trust = trust;
    }

    @Override
    public String name() {
        return trust == null ? "mu2-sgd" : trust == ServerTrust.UNTRUSTED ? "mu2-untrusted" : "mu2-trusted";
    }

    @Override
    public String family() {
        return "federated";
    }

    @Override
    public String summary() {
        return trust == null ? "mu^2-SGD over M machines, every example used once (no privacy)"
                : trust == ServerTrust.UNTRUSTED ? "DP-mu^2-FL, untrusted server: every machine noises its own messages"
                : "DP-mu^2-FL, trusted server: the server noises the average";
    }

    @Override
    public boolean isPrivate() {
        return trust != null;
    }

    /** Its parties compute a round independently; {@code --engine spark} splits them into blocks. */
    @Override
    public boolean splitsIntoBlocks() {
        return true;
    }

    /** The server unless it is trusted, and another machine unless the server is untrusted. */
    @Override
    public List<ObserverDeclaration> observers() {
        if (trust == null) {
            return List.of(SERVER, MACHINE);
        }
        return trust == ServerTrust.UNTRUSTED ? List.of(SERVER) : List.of(MACHINE);
    }

    @Override
    public boolean prefersConvexModel() {
        return true;
    }

    @Override
    public List<RunOption<?>> options() {
        List<RunOption<?>> out = new ArrayList<>(List.of(SEED, MACHINES, PARTITION, ROUNDS, BATCH_SIZE, DIAMETER, LIPSCHITZ,
                SMOOTHNESS, FEATURE_NORM_BOUND, INIT));
        if (trust != null) {
            out.addAll(List.of(EPSILON, DELTA, EPSILON_BUDGET, NOISE_MULTIPLIER, NOISE, RunOptions.ACCOUNTANT));
        }
        return out;
    }

    @Override
    public MemoryEstimate memory(RunSettings s, RunInputs inputs) {
        int machines = (int) (long) s.get(MACHINES, DEFAULT_MACHINES);
        DataShape data = DataShape.of(inputs.train(), inputs.splits().apply(s.get(PARTITION, DEFAULT_PARTITION)), machines,
                s.get(SEED, 1L));
        return new Mu2Memory(name(), inputs.model().footprint(), data, machines, Math.max(1, s.get(BATCH_SIZE, 1L))).estimate();
    }

    /**
     * The run's description from the settings, the model's configuration (no network is built) and the machines' data
     * sizes; G and L are given, or follow from the public feature bound (never from the data).
     */
    @Override
    public Mu2RunSpec config(RunSettings s, RunInputs inputs) {
        refuseUsers(inputs);
        long seed = s.get(SEED, 1L);
        int machines = machines(s, inputs);
        PartySource data = PartySource.split(inputs.train(), inputs.splits().apply(s.get(PARTITION, DEFAULT_PARTITION)));
        long minLocal = Arrays.stream(data.sizes(machines, seed)).min().orElseThrow();
        DenseNetworkSpec spec = DpModelValidator.validate(inputs.model().configuration());
        Mu2Setup setup = setup(s, inputs, spec, machines, minLocal);
        return new Mu2RunSpec(setup, data, machines, s.get(INIT, Mu2Constants.isConvexModel(spec) ? "zero" : "model"),
                RunOptions.noiseKind(s, isPrivate()), s.get(EPSILON_BUDGET, Double.NaN), RunOptions.accountants(s));
    }

    @Override
    public TrainingRun create(Mu2RunSpec spec, RunInputs inputs, RunSettings recorded) {
        return spec.create(inputs.model().build(new Sgd(0.1), 0.0, spec.setup().config().seed()), recorded);
    }

    /** The ledger of {@link #create}'s run, from its description (no network is built). */
    @Override
    public Optional<PlannedLedger> plannedLedger(Mu2RunSpec spec, RunInputs inputs) {
        return spec.setup().plannedLedger(spec.noise().isSecure());
    }

    private void refuseUsers(RunInputs inputs) {
        if (inputs.hasUsers()) {
            throw new IllegalArgumentException(name() + " trains a classifier on a data set split over machines; this task"
                    + " defines its own users (use mnist, a9a or covtype)");
        }
    }

    private static int machines(RunSettings s, RunInputs inputs) {
        int machines = (int) (long) s.get(MACHINES, DEFAULT_MACHINES);
        if (machines > inputs.train().size()) {
            throw MACHINES.invalid("--machines " + machines + " is larger than the " + inputs.train().size() + " training"
                    + " examples: every machine needs at least one example; use at most " + inputs.train().size());
        }
        return machines;
    }

    /**
     * The rounds, the problem constants, the step size and the calibrated noise of a run of {@code spec} over
     * {@code machines} machines whose smallest holds {@code minLocal} examples.
     */
    private Mu2Setup setup(RunSettings s, RunInputs inputs, DenseNetworkSpec spec, int machines, long minLocal) {
        long seed = s.get(SEED, 1L);
        long batch = s.get(BATCH_SIZE, 1L);
        if (batch < 1) {
            throw BATCH_SIZE.invalid("--batch-size " + batch + ": mu2 takes at least 1 example per machine and round");
        }
        long maxRounds = minLocal / batch;
        if (maxRounds < 1) {
            throw BATCH_SIZE.invalid("the smallest machine has " + minLocal + " examples, fewer than one batch of " + batch
                    + "; use fewer machines or a smaller --batch-size");
        }
        long rounds = s.get(ROUNDS, maxRounds);
        if (rounds > maxRounds) {
            throw ROUNDS.invalid("--rounds " + rounds + ": mu2 uses every example once, so with " + minLocal + " examples on the"
                    + " smallest machine and batches of " + batch + " it runs between 1 and " + maxRounds + " rounds");
        }
        double diameter = s.get(DIAMETER, 0.1);
        if (s.has(LIPSCHITZ) != s.has(SMOOTHNESS)) {
            throw LIPSCHITZ.invalid("give both --lipschitz G and --smoothness L, or neither (then they follow from --feature-norm-bound"
                    + " for softmax or logistic regression)");
        }
        if (s.has(LIPSCHITZ) && s.has(FEATURE_NORM_BOUND)) {
            throw FEATURE_NORM_BOUND.invalid("--feature-norm-bound sets G and L, which --lipschitz and --smoothness give: use one or"
                    + " the other");
        }
        Mu2Constants constants = s.has(LIPSCHITZ)
                ? Mu2Constants.given(s.get(LIPSCHITZ).orElseThrow(), s.get(SMOOTHNESS).orElseThrow(), diameter)
                : Mu2Constants.fromFeatureBound(spec, s.get(FEATURE_NORM_BOUND, Mu2Constants.defaultFeatureBound(spec.nIn())),
                diameter);
        if (trust == null) {
            return Mu2Setup.nonPrivate(constants, machines, rounds, (int) batch, spec.numParams(), seed);
        }
        if (s.has(EPSILON) == s.has(NOISE_MULTIPLIER)) {
            throw EPSILON.invalid(name() + " needs exactly one of --epsilon (the noise is calibrated to it) and"
                    + " --noise-multiplier Z (noise std = Z S)");
        }
        double delta = s.get(DELTA, 1e-5);
        AccountantFactory accountants = RunOptions.accountants(s);
        return s.has(EPSILON)
                ? Mu2Setup.calibrated(trust, constants, machines, rounds, (int) batch, spec.numParams(), s.get(EPSILON).orElseThrow(), delta,
                seed, accountants)
                : Mu2Setup.withNoise(trust, constants, machines, rounds, (int) batch, spec.numParams(),
                s.get(NOISE_MULTIPLIER).orElseThrow() * constants.sensitivityBound(), delta, seed, accountants);
    }
}
