package org.dpdl4j.protocol.decentralized;

import static org.dpdl4j.protocol.decentralized.DecentralizedOptions.ADVERSARY;
import static org.dpdl4j.protocol.decentralized.DecentralizedOptions.LR_DECAY;
import static org.dpdl4j.runtime.options.PartyOptions.NODES;
import static org.dpdl4j.protocol.decentralized.DecentralizedOptions.NOISE_PAIR;
import static org.dpdl4j.protocol.decentralized.DecentralizedOptions.REFERENCE_COMPAT;
import static org.dpdl4j.protocol.decentralized.DecentralizedOptions.SIGMA_CDP;
import static org.dpdl4j.protocol.decentralized.DecentralizedOptions.SIGMA_COR;
import static org.dpdl4j.runtime.options.PartyOptions.TOPOLOGY;
import static org.dpdl4j.protocol.decentralized.DecentralizedOptions.UNIT;
import static org.dpdl4j.runtime.options.RunOptions.BATCH_SIZE;
import static org.dpdl4j.runtime.options.RunOptions.CLIP;
import static org.dpdl4j.runtime.options.RunOptions.DELTA;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON_BUDGET;
import static org.dpdl4j.runtime.options.RunOptions.LEARNING_RATE;
import static org.dpdl4j.runtime.options.RunOptions.NOISE;
import static org.dpdl4j.runtime.options.RunOptions.PARTITION;
import static org.dpdl4j.runtime.options.RunOptions.ROUNDS;
import static org.dpdl4j.runtime.options.RunOptions.SAMPLING;
import static org.dpdl4j.runtime.options.RunOptions.SEED;
import static org.dpdl4j.runtime.options.RunOptions.WEIGHT_DECAY;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.TopologySpec;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.ObserverDeclaration;
import org.dpdl4j.runtime.ConfiguredProtocol;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.learning.config.Sgd;
import org.dpdl4j.runtime.options.PartyOptions;

/**
 * One decentralized algorithm (D-SGD, Decor, LDP, CDP) as a registered protocol: its options, and a run set up by
 * {@link DecentralizedRunBuilder} from them. A task that defines its own users (Decor's synthetic task) trains them
 * with full local gradients of the summed loss; otherwise the training set is split over the nodes.
 */
public final class DecentralizedProtocol implements ConfiguredProtocol<DecentralizedRunSpec> {
    private static final ObserverDeclaration EAVESDROPPER = new ObserverDeclaration("eavesdropper",
            "every message: each node's model and its broadcast half-step",
            "outside the graph; knows the learning rate, the decay and the noise levels, no secret");
    private static final ObserverDeclaration NEIGHBOUR = new ObserverDeclaration("neighbour",
            "what an eavesdropper sees, plus the seed of its pairwise noise with the attacked node",
            "a node of the graph that follows the protocol and pools its knowledge with no one");
    private static final ObserverDeclaration AVERAGE_MODEL = new ObserverDeclaration("average model",
            "the average model of every round", "knows every other node's data and sampling (worst case)");

    /** Nodes when --nodes is not given. */
    static final String DEFAULT_NODES = "16";
    /** The split of a data set over the nodes when --partition is not given. */
    static final String DEFAULT_PARTITION = "dirichlet:10";

    private final DecentralizedAlgorithm algorithm;

    public DecentralizedProtocol(DecentralizedAlgorithm algorithm) {
        this.algorithm = algorithm;
    }

    @Override
    public String name() {
        return algorithm.cliName();
    }

    @Override
    public String family() {
        return "decentralized";
    }

    @Override
    public String summary() {
        return switch (algorithm) {
            case DSGD -> "decentralized SGD: local steps and gossip on a graph (no privacy)";
            case DECOR -> "Decor: decentralized SGD with private plus pairwise-cancelling correlated Gaussian noise";
            case LDP -> "local-DP baseline: every node adds all the noise its own guarantee needs";
            case CDP -> "central-DP baseline: exact averaging on the complete graph, only the average model private";
        };
    }

    @Override
    public boolean isPrivate() {
        return algorithm.isPrivate();
    }

    /** Its parties compute a round independently; {@code --engine spark} splits them into blocks. */
    @Override
    public boolean splitsIntoBlocks() {
        return true;
    }

    /** The positions of the gossip protocols (spec table 8.5): what each algorithm's guarantee is stated against. */
    @Override
    public List<ObserverDeclaration> observers() {
        return switch (algorithm) {
            case DSGD -> List.of(EAVESDROPPER, AVERAGE_MODEL);
            case DECOR -> List.of(EAVESDROPPER, NEIGHBOUR, AVERAGE_MODEL);
            case LDP -> List.of(EAVESDROPPER);
            case CDP -> List.of(AVERAGE_MODEL);
        };
    }

    @Override
    public List<RunOption<?>> options() {
        List<RunOption<?>> out = new ArrayList<>(List.of(SEED, ROUNDS, BATCH_SIZE, LEARNING_RATE, LR_DECAY, WEIGHT_DECAY, NODES,
                PARTITION));
        if (algorithm != DecentralizedAlgorithm.CDP) {
            out.add(TOPOLOGY);
        }
        if (algorithm == DecentralizedAlgorithm.DSGD) {
            out.add(SAMPLING);
            return out;
        }
        out.addAll(List.of(EPSILON, DELTA, EPSILON_BUDGET, CLIP, SAMPLING, NOISE, UNIT, SIGMA_CDP, RunOptions.ACCOUNTANT));
        if (algorithm == DecentralizedAlgorithm.DECOR) {
            out.addAll(List.of(SIGMA_COR, ADVERSARY, NOISE_PAIR, REFERENCE_COMPAT));
        }
        return out;
    }

    @Override
    public MemoryEstimate memory(RunSettings s, RunInputs inputs) {
        long seed = s.get(SEED, 1L);
        Graph graph = graph(s, seed);
        int n = graph != null ? graph.vertexCount() : nodeCount(s.get(NODES, DEFAULT_NODES));
        long edges = graph != null ? graph.edgeCount() : (long) n * (n - 1) / 2;
        ModelFootprint model = inputs.model().footprint();
        if (inputs.hasUsers()) {
            return new DecentralizedMemory(algorithm, model, DataShape.of(inputs.users()), n, edges, SamplingScheme.FULL_BATCH, 0)
                    .estimate();
        }
        boolean userLevel = algorithm.isPrivate() && s.get(UNIT).filter(u -> u.equals("user")).isPresent();
        SamplingScheme sampling = s.get(SAMPLING).map(v -> v.equals("poisson") ? SamplingScheme.POISSON
                : SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT).orElse(userLevel ? SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT
                : SamplingScheme.POISSON);
        DataShape data = DataShape.of(inputs.train(), inputs.splits().apply(s.get(PARTITION, DEFAULT_PARTITION)), n, seed);
        return new DecentralizedMemory(algorithm, model, data, n, edges, sampling, s.get(BATCH_SIZE, 1L)).estimate();
    }

    /** The communication graph, or null for CDP (which averages exactly over its nodes). */
    private Graph graph(RunSettings s, long seed) {
        return algorithm == DecentralizedAlgorithm.CDP ? null : TopologySpec.resolve(s.get(TOPOLOGY, "ring"), s.get(NODES, DEFAULT_NODES), seed);
    }

    /**
     * The run's description from the settings: graph, data, noise, unit, target, all checked; no model. What
     * {@link #create} and {@link #plannedLedger} read.
     */
    @Override
    public DecentralizedRunSpec config(RunSettings s, RunInputs inputs) {
        return configured(s, inputs).spec();
    }

    @Override
    public TrainingRun create(DecentralizedRunSpec spec, RunInputs inputs, RunSettings recorded) {
        requireOwn(spec.algorithm().cliName());
        double lr = spec.learningRate().at(0);
        return spec.create(inputs.model().build(new Sgd(lr), 0.0, spec.privacy().seed()), null, recorded);
    }

    /** The ledger of {@link #create}'s run, from its description and the nodes' data sizes (no model is built). */
    @Override
    public Optional<PlannedLedger> plannedLedger(DecentralizedRunSpec spec, RunInputs inputs) {
        requireOwn(spec.algorithm().cliName());
        return spec.plannedLedger(spec.privacy().noise().isSecure());
    }

    /** A builder holding everything the settings say (graph, data, noise, unit, target), checked, but no model. */
    private DecentralizedRunBuilder configured(RunSettings s, RunInputs inputs) {
        long seed = s.get(SEED, 1L);
        double lr = s.require(LEARNING_RATE, name() + " needs a learning rate");
        double decay = s.get(LR_DECAY, 0.0);
        DecentralizedRunBuilder b = DecentralizedTrainer.builder().algorithm(algorithm).seed(seed)
                .accountant(RunOptions.accountants(s))
                .learningRate(decay > 0 ? new LearningRate.InverseTime(lr, decay) : new LearningRate.Constant(lr))
                .weightDecay(s.get(WEIGHT_DECAY, 0.0)).rounds(s.require(ROUNDS, name() + " needs a number of rounds"))
                .noiseKind(RunOptions.noiseKind(s, algorithm.isPrivate()));
        Graph graph = graph(s, seed);
        int n = graph != null ? graph.vertexCount() : nodeCount(s.get(NODES, DEFAULT_NODES));
        if (graph == null) {
            b.nodes(n);
        } else {
            b.graph(graph);
        }
        if (inputs.hasUsers()) {
            for (RunOption<?> o : List.of(BATCH_SIZE, SAMPLING, PARTITION)) {
                if (s.has(o)) {
                    throw o.invalid(o.flag() + " has no effect here: this task defines its own users, and every user takes"
                            + " the full gradient of its local problem each round; drop " + o.flag());
                }
            }
            int users = inputs.users().size();
            if (n != users) {
                throw NODES.invalid("this task has " + users + " users; use --nodes " + users);
            }
            b.nodeData(inputs.users()).objective(LocalObjective.SUM).sampling(SamplingScheme.FULL_BATCH);
        } else {
            b.split(inputs.train(), inputs.splits().apply(s.get(PARTITION, DEFAULT_PARTITION)));
            long batch = s.require(BATCH_SIZE, name() + " needs the batch size of each node");
            if (batch == 0) {
                throw BATCH_SIZE.invalid("--batch-size 0: " + name() + " samples a batch at every node in every round;"
                        + " give at least 1 example per node");
            }
            b.batchSize((int) batch);
        }
        // Without --sampling: Poisson batches at example level (the accountant's assumption), fixed-size at user level.
        s.get(SAMPLING).ifPresent(v -> b.sampling(v.equals("poisson") ? SamplingScheme.POISSON : SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT));
        if (!algorithm.isPrivate()) {
            return b;
        }
        ProtectedUnit unit = s.get(UNIT).map(u -> u.equals("user") ? ProtectedUnit.USER : ProtectedUnit.EXAMPLE)
                .orElseThrow(() -> UNIT.invalid(name() + " protects either one example or one node's whole dataset: give --unit"
                        + " example or --unit user"));
        if (inputs.hasUsers() && unit == ProtectedUnit.EXAMPLE) {
            throw UNIT.invalid("--unit example: this task's users minimise the sum over their examples, so one example"
                    + " moves a user's gradient by up to the clip norm; only --unit user is analysed here");
        }
        b.unit(unit).clip(s.require(CLIP, name() + " needs a clipping norm"));
        boolean explicit = s.has(SIGMA_CDP);
        if (explicit == s.has(EPSILON)) {
            throw EPSILON.invalid("give either --epsilon (the noise is calibrated to it) or --sigma-cdp"
                    + (algorithm == DecentralizedAlgorithm.DECOR ? " and --sigma-cor" : "") + ", not both and not neither");
        }
        double delta = s.get(DELTA, 1e-5);
        if (explicit) {
            if (algorithm == DecentralizedAlgorithm.DECOR && !s.has(SIGMA_COR)) {
                throw SIGMA_COR.invalid("Decor with --sigma-cdp also needs --sigma-cor");
            }
            if (s.has(NOISE_PAIR)) {
                throw NOISE_PAIR.invalid("--noise-pair chooses among the noise pairs that meet --epsilon; with --sigma-cdp"
                        + " and --sigma-cor the pair is yours: drop --noise-pair, or give --epsilon instead");
            }
            b.noise(s.get(SIGMA_CDP).orElseThrow(), s.get(SIGMA_COR, 0.0)).delta(delta);
        } else {
            if (s.has(SIGMA_COR)) {
                throw SIGMA_COR.invalid("--sigma-cor goes with --sigma-cdp; with --epsilon both noise levels are calibrated"
                        + " (--noise-pair chooses among the pairs that meet it): drop --sigma-cor, or give --sigma-cdp instead"
                        + " of --epsilon");
            }
            b.target(s.get(EPSILON).orElseThrow(), delta);
        }
        s.get(EPSILON_BUDGET).ifPresent(b::budget);
        if (algorithm == DecentralizedAlgorithm.DECOR) {
            b.adversary(Adversary.parse(s.get(ADVERSARY, "eavesdropper")))
                    .noisePair(NoisePairChoice.parse(s.get(NOISE_PAIR, "smallest")))
                    .compatibility(s.get(REFERENCE_COMPAT, false) ? DecorCompatibility.REFERENCE_CODE : DecorCompatibility.NONE);
        }
        return b;
    }

    private static int nodeCount(String nodes) {
        try {
            return Integer.parseInt(nodes.strip());
        } catch (NumberFormatException e) {
            throw NODES.invalid("--nodes " + nodes + ": the CDP baseline averages on the complete graph; give a whole number of nodes");
        }
    }
}
