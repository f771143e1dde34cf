package org.dpdl4j.protocol.muffliato;

import static org.dpdl4j.protocol.muffliato.MuffliatoOptions.CALIBRATE_TO;
import static org.dpdl4j.protocol.muffliato.MuffliatoOptions.GOSSIP;
import static org.dpdl4j.protocol.muffliato.MuffliatoOptions.GOSSIP_STEPS;
import static org.dpdl4j.runtime.options.PartyOptions.NODES;
import static org.dpdl4j.runtime.options.PartyOptions.TOPOLOGY;
import static org.dpdl4j.runtime.options.RunOptions.CLIP;
import static org.dpdl4j.runtime.options.RunOptions.DELTA;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON_BUDGET;
import static org.dpdl4j.runtime.options.RunOptions.LEARNING_RATE;
import static org.dpdl4j.runtime.options.RunOptions.NOISE;
import static org.dpdl4j.runtime.options.RunOptions.NOISE_MULTIPLIER;
import static org.dpdl4j.runtime.options.RunOptions.PARTITION;
import static org.dpdl4j.runtime.options.RunOptions.ROUNDS;
import static org.dpdl4j.runtime.options.RunOptions.SEED;

import java.util.List;
import java.util.Optional;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.TopologySpec;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ConfiguredProtocol;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolProvider;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.learning.config.Sgd;

/**
 * {@code muffliato}: Muffliato-GD, local noisy gradient steps followed by gossip averaging on a graph, with local DP in
 * the ledger and pairwise network DP reported beside it. Also its own provider.
 */
public final class MuffliatoProtocol implements ConfiguredProtocol<MuffliatoRunSpec>, ProtocolProvider {
    /** Nodes when --nodes is not given. */
    static final String DEFAULT_NODES = "16";
    /** The split of a data set over the nodes when --partition is not given. */
    static final String DEFAULT_PARTITION = "iid";
    /** Gossip steps per round when --gossip-steps is not given. */
    static final long DEFAULT_GOSSIP_STEPS = 10;

    @Override
    public List<Protocol> protocols() {
        return List.of(this);
    }

    @Override
    public String name() {
        return MuffliatoGd.PROTOCOL;
    }

    @Override
    public String family() {
        return "decentralized";
    }

    @Override
    public String summary() {
        return "Muffliato: noisy local gradient steps then gossip averaging; local DP plus pairwise network DP by graph distance";
    }

    @Override
    public boolean isPrivate() {
        return true;
    }

    @Override
    public boolean prefersConvexModel() {
        return true;
    }

    @Override
    public List<RunOption<?>> options() {
        return List.of(SEED, TOPOLOGY, NODES, PARTITION, ROUNDS, LEARNING_RATE, CLIP, EPSILON, DELTA, EPSILON_BUDGET, NOISE_MULTIPLIER,
                NOISE, GOSSIP_STEPS, GOSSIP, CALIBRATE_TO, RunOptions.ACCOUNTANT);
    }

    private static Graph graph(RunSettings s) {
        return TopologySpec.resolve(s.get(TOPOLOGY, "ring"), s.get(NODES, DEFAULT_NODES), s.get(SEED, 1L));
    }

    @Override
    public MemoryEstimate memory(RunSettings s, RunInputs inputs) {
        Graph g = graph(s);
        int n = g.vertexCount();
        DataShape data = inputs.hasUsers() ? DataShape.of(inputs.users())
                : DataShape.of(inputs.train(), inputs.splits().apply(s.get(PARTITION, DEFAULT_PARTITION)), n, s.get(SEED, 1L));
        return new MuffliatoMemory(inputs.model().footprint(), data, n).estimate();
    }

    /** The run's description from the settings, checked; no model. */
    @Override
    public MuffliatoRunSpec config(RunSettings s, RunInputs inputs) {
        s.require(LEARNING_RATE, "muffliato needs the step size gamma (--lr)");
        return configured(s, inputs).spec();
    }

    @Override
    public TrainingRun create(MuffliatoRunSpec spec, RunInputs inputs, RunSettings recorded) {
        return spec.create(inputs.model().build(new Sgd(spec.stepSize()), 0.0, spec.privacy().seed()), recorded);
    }

    /** The ledger of {@link #create}'s run, from its description and the graph (no model is built). */
    @Override
    public Optional<PlannedLedger> plannedLedger(MuffliatoRunSpec spec, RunInputs inputs) {
        return spec.plannedLedger();
    }

    /** A builder holding everything the settings say, checked, but no model. */
    private MuffliatoRunBuilder configured(RunSettings s, RunInputs inputs) {
        long seed = s.get(SEED, 1L);
        double clip = s.require(CLIP, "muffliato needs the gradient clip L (--clip): one node's data moves its gradient by at most 2L");
        if (s.has(EPSILON) == s.has(NOISE_MULTIPLIER)) {
            throw EPSILON.invalid("muffliato needs exactly one of --epsilon (sigma is calibrated to it; see --calibrate-to) and"
                    + " --noise-multiplier Z (sigma = Z L)");
        }
        if (s.has(CALIBRATE_TO) && !s.has(EPSILON)) {
            throw CALIBRATE_TO.invalid("--calibrate-to chooses what --epsilon bounds; give --epsilon, or drop --calibrate-to");
        }
        Graph g = graph(s);
        double delta = s.get(DELTA, 1e-5);
        double lr = s.require(LEARNING_RATE, "muffliato needs the step size gamma (--lr)");
        MuffliatoRunBuilder b = MuffliatoGd.builder().graph(g)
                .rounds(s.require(ROUNDS, "muffliato needs the number of rounds (--rounds)"))
                .gossipSteps((int) (long) s.get(GOSSIP_STEPS, DEFAULT_GOSSIP_STEPS))
                .scheme(GossipScheme.parse(s.get(GOSSIP, "chebyshev"))).stepSize(lr).clip(clip)
                .noiseKind(RunOptions.noiseKind(s, true)).seed(seed).accountant(RunOptions.accountants(s));
        if (inputs.hasUsers()) {
            if (s.has(PARTITION)) {
                throw PARTITION.invalid("--partition has no effect here: this task defines its own users; drop --partition");
            }
            if (inputs.users().size() != g.vertexCount()) {
                throw NODES.invalid("this task has " + inputs.users().size() + " users; use --nodes " + inputs.users().size());
            }
            b.nodeData(inputs.users(), true);
        } else {
            b.split(inputs.train(), inputs.splits().apply(s.get(PARTITION, DEFAULT_PARTITION)));
        }
        if (s.has(EPSILON)) {
            b.target(s.get(EPSILON).orElseThrow(), delta)
                    .calibrateTo(MuffliatoRunBuilder.CalibrationTarget.parse(s.get(CALIBRATE_TO, "local")));
        } else {
            b.sigma(s.get(NOISE_MULTIPLIER).orElseThrow() * clip).delta(delta);
        }
        s.get(EPSILON_BUDGET).ifPresent(b::budget);
        return b;
    }
}
