package org.dpdl4j.protocol.recal;

import static org.dpdl4j.runtime.options.PartyOptions.NODES;
import static org.dpdl4j.runtime.options.PartyOptions.TOPOLOGY;
import static org.dpdl4j.protocol.recal.PrimalDualOptions.LCI;
import static org.dpdl4j.protocol.recal.PrimalDualOptions.MU;
import static org.dpdl4j.protocol.recal.PrimalDualOptions.PENALTY;
import static org.dpdl4j.protocol.recal.PrimalDualOptions.STEP_SCALE;
import static org.dpdl4j.protocol.recal.PrimalDualOptions.STEP_SIZE;
import static org.dpdl4j.protocol.recal.PrimalDualOptions.THETA;
import static org.dpdl4j.protocol.recal.PrimalDualOptions.ZETA;
import static org.dpdl4j.runtime.options.RunOptions.CLIP;
import static org.dpdl4j.runtime.options.RunOptions.DELTA;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON_BUDGET;
import static org.dpdl4j.runtime.options.RunOptions.NOISE;
import static org.dpdl4j.runtime.options.RunOptions.NOISE_MULTIPLIER;
import static org.dpdl4j.runtime.options.RunOptions.PARTITION;
import static org.dpdl4j.runtime.options.RunOptions.ROUNDS;
import static org.dpdl4j.runtime.options.RunOptions.SEED;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.TopologySpec;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ObserverDeclaration;
import org.dpdl4j.runtime.ConfiguredProtocol;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.learning.config.Sgd;
import org.dpdl4j.runtime.options.PartyOptions;

/** One algorithm of the DP-RECAL comparison as a registered protocol: its options and how settings build its run. */
public final class PrimalDualProtocol implements ConfiguredProtocol<PrimalDualRunSpec> {
    /** The split of the data set over the parties when --partition is not given. */
    static final String DEFAULT_PARTITION = "iid";
    /** Agents when --nodes is not given. */
    static final String DEFAULT_AGENTS = "8";
    private final PrimalDualAlgorithm algorithm;

    public PrimalDualProtocol(PrimalDualAlgorithm algorithm) {
        this.algorithm = algorithm;
    }

    @Override
    public String name() {
        return algorithm.cliName();
    }

    @Override
    public String family() {
        return algorithm.family();
    }

    @Override
    public String summary() {
        return algorithm.summary();
    }

    @Override
    public boolean isPrivate() {
        return algorithm.isPrivate();
    }

    /** RECAL's baton, watched in full or only its dual sum; the other primal-dual algorithms declare none yet. */
    @Override
    public List<ObserverDeclaration> observers() {
        if (!algorithm.isRelay()) {
            return List.of();
        }
        return List.of(new ObserverDeclaration("eavesdropper",
                        "the baton before and after the active agent's step, and that agent's previous model and dual",
                        "oracle: knows the agent's internal state, its step sizes and the noise schedule"),
                new ObserverDeclaration("increment", "the baton's dual sum before and after a step",
                        "knows the model the agent computed its gradient at, not the agent's dual or the step's affine terms"));
    }

    @Override
    public boolean prefersConvexModel() {
        return true;
    }

    /** The Lasso of the paper: a least-squares model without intercept on one-hot targets, pixels in [0, 1]. */
    @Override
    public java.util.Map<String, String> workloadDefaults() {
        return java.util.Map.of("model", "least-squares", "pixels", "unit");
    }

    @Override
    public List<RunOption<?>> options() {
        List<RunOption<?>> out = new ArrayList<>(List.of(SEED, ROUNDS, NODES, TOPOLOGY, PARTITION, PENALTY, STEP_SCALE));
        if (algorithm.isRelay() || algorithm == PrimalDualAlgorithm.RECAL_SYNC) {
            out.addAll(List.of(THETA, MU));
        } else {
            out.add(STEP_SIZE);
        }
        if (algorithm.isPrivate()) {
            out.addAll(List.of(CLIP, EPSILON, DELTA, EPSILON_BUDGET, NOISE_MULTIPLIER, NOISE, ZETA, RunOptions.ACCOUNTANT,
                    RunOptions.FEATURE_NORM_BOUND));
        }
        if (algorithm == PrimalDualAlgorithm.DP_RECAL) {
            out.addAll(List.of(LCI, PrimalDualOptions.PAPER_ACCOUNTING));
        }
        return out;
    }

    @Override
    public MemoryEstimate memory(RunSettings s, RunInputs inputs) {
        long seed = s.get(SEED, 1L);
        int n = TopologySpec.resolve(s.get(TOPOLOGY, "ring"), s.get(NODES, DEFAULT_AGENTS), seed).vertexCount();
        DataShape data = inputs.hasUsers() ? DataShape.of(inputs.users())
                : DataShape.of(inputs.train(), inputs.splits().apply(s.get(PARTITION, DEFAULT_PARTITION)), n, seed);
        return new PrimalDualMemory(algorithm, inputs.model().footprint(), data, n, s.get(ROUNDS, 1L)).estimate();
    }

    /** The run's description from the settings, checked; no model. */
    @Override
    public PrimalDualRunSpec config(RunSettings s, RunInputs inputs) {
        return configured(s, inputs).spec();
    }

    @Override
    public TrainingRun create(PrimalDualRunSpec spec, RunInputs inputs, RunSettings recorded) {
        requireOwn(spec.algorithm().cliName());
        return spec.create(inputs.model().build(new Sgd(0.1), 0.0, spec.privacy().seed()), recorded);
    }

    /**
     * The ledger of {@link #create}'s run, from its description, the model's configuration and the agents' data, which
     * the run's set-up reads for its smoothness constants (no network is built, nothing trained). Empty for the
     * algorithms without noise, and for dp-recal with secure noise: its baton's path, which decides whom each iteration
     * charges, is then drawn from secret randomness when the run is built. With {@code --noise seeded} the path follows
     * from the seed.
     */
    @Override
    public Optional<PlannedLedger> plannedLedger(PrimalDualRunSpec spec, RunInputs inputs) {
        requireOwn(spec.algorithm().cliName());
        return spec.plannedLedger(inputs.model().configuration());
    }

    /** A builder holding everything the settings say, checked, but no model. */
    private PrimalDualRunBuilder configured(RunSettings s, RunInputs inputs) {
        long seed = s.get(SEED, 1L);
        Graph graph = TopologySpec.resolve(s.get(TOPOLOGY, "ring"), s.get(NODES, DEFAULT_AGENTS), seed);
        PrimalDualRunBuilder b = PrimalDualRunBuilder.of(algorithm).graph(graph).iterations(s.require(ROUNDS, name() + " needs the number of iterations (--rounds)"))
                .penalty(Penalty.parse(s.get(PENALTY, "l1:0.01"))).stepScale(s.get(STEP_SCALE, 1.0))
                .noiseKind(RunOptions.noiseKind(s, algorithm.isPrivate())).seed(seed);
        if (inputs.hasUsers()) {
            if (s.has(PARTITION)) {
                throw PARTITION.invalid("--partition has no effect here: this task defines its own users; drop it");
            }
            if (inputs.users().size() != graph.vertexCount()) {
                throw NODES.invalid("this task has " + inputs.users().size() + " users; use --nodes " + inputs.users().size());
            }
            b.agents(inputs.users());
        } else {
            b.split(inputs.train(), inputs.splits().apply(s.get(PARTITION, DEFAULT_PARTITION)), graph.vertexCount());
        }
        if (algorithm.isRelay() || algorithm == PrimalDualAlgorithm.RECAL_SYNC) {
            double theta = s.get(THETA, 2.0);
            if (theta == 2 && s.has(MU)) {
                throw MU.invalid("--mu splits the correction step, which theta = 2 (the default --theta) does not take;"
                        + " give --theta other than 2 with it, or drop --mu");
            }
            b.relaxation(theta, s.get(MU, algorithm == PrimalDualAlgorithm.DP_RECAL ? 0.0 : 1.0));
        } else {
            if (s.has(STEP_SIZE) && s.has(STEP_SCALE)) {
                throw STEP_SCALE.invalid("--step-scale multiplies the default step alpha, and --alpha replaces it; give one"
                        + " of them, not both");
            }
            s.get(STEP_SIZE).ifPresent(b::alpha);
        }
        if (algorithm.isPrivate()) {
            b.accountant(RunOptions.accountants(s)).clip(s.require(CLIP, name() + " needs the per-record gradient bound G_rec"
                    + " (--clip): every record's gradient is clipped to it"));
            if (s.has(EPSILON) == s.has(NOISE_MULTIPLIER)) {
                throw EPSILON.invalid(name() + " needs exactly one of --epsilon (every agent's sigma is calibrated to it) and"
                        + " --noise-multiplier Z (sigma = Z x the sensitivity)");
            }
            double delta = s.get(DELTA, 1e-5);
            if (s.has(EPSILON)) {
                b.target(s.get(EPSILON).orElseThrow(), delta);
            } else {
                b.noiseMultiplier(s.get(NOISE_MULTIPLIER).orElseThrow()).delta(delta);
            }
            s.get(EPSILON_BUDGET).ifPresent(b::budget);
            b.zeta(s.get(ZETA, 1.0));
            s.get(LCI).ifPresent(b::plannedLci);
            b.paperAccounting(s.get(PrimalDualOptions.PAPER_ACCOUNTING, false));
            s.get(RunOptions.FEATURE_NORM_BOUND).ifPresent(b::featureNormBound);
        }
        return b;
    }
}
