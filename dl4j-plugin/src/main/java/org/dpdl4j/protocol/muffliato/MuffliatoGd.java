package org.dpdl4j.protocol.muffliato;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.optim.RowClipping;
import org.dpdl4j.privacy.ledger.Charge;
import org.dpdl4j.privacy.ledger.LedgerStatement;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.NodeBatches;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PaddedBatch;
import org.dpdl4j.runtime.RoundWorkspace;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Muffliato-GD (Cyffers et al. 2022): the n node models are the rows of one [n, p] array. Each round every node
 * computes the gradient of its local loss on its whole local data (one stacked pass for all nodes), clips it to L,
 * adds its private {@code N(0, sigma^2 I)}, takes the step {@code x_i = theta_i - gamma (g_i + eta_i)}, and then T gossip
 * steps ({@link GossipPolynomial}, plain or Chebyshev) average the x_i into the next models.
 */
public final class MuffliatoGd extends AbstractTrainingRun {
    /** The protocol name. */
    public static final String PROTOCOL = "muffliato";

    private final MultiLayerNetwork template;
    private final int n;
    private final MuffliatoConfig config;
    private final NoiseStreams streams;
    private final GossipPolynomial gossip;
    private final PerExampleGradients gradients;
    private final PaddedBatch batch;
    private final double[] lossScale;
    private final INDArray lossScaleColumn;
    private final INDArray theta;
    private final INDArray grad;
    private final MuffliatoPrivacy privacy;
    private final String mechanism;
    private final RoundWorkspace workspace = new RoundWorkspace();

    MuffliatoGd(MultiLayerNetwork template, List<NodeData> nodes, boolean sumObjective, MuffliatoConfig config, GossipPolynomial gossip,
                NoiseStreams streams, MuffliatoPrivacy privacy, RunLedger ledger, RunSettings settings, String partitionReport) {
        super(PROTOCOL, settings, ledger);
        this.template = Objects.requireNonNull(template, "template network");
        this.config = Objects.requireNonNull(config, "config");
        this.gossip = Objects.requireNonNull(gossip, "gossip");
        this.streams = Objects.requireNonNull(streams, "noise streams");
        this.n = nodes.size();
        if (n != gossip.matrix().size()) {
            throw new IllegalArgumentException("the graph has " + gossip.matrix().size() + " nodes but " + n + " local datasets were given");
        }
        if ((config.sigma() > 0) != (privacy != null) || (privacy != null) != (ledger != null)) {
            throw new IllegalArgumentException(config.sigma() > 0 ? "a noisy Muffliato run needs its accounting and a ledger"
                    : "a Muffliato run without noise has no accounting or ledger");
        }
        this.privacy = privacy;
        this.mechanism = privacy == null ? null : privacy.describe();
        partitionReport(partitionReport);
        this.gradients = PerExampleGradients.of(template);
        DataType type = gradients.spec().dataType();
        int[][] rows = new int[n][];
        lossScale = new double[n];
        for (int i = 0; i < n; i++) {
            NodeData d = nodes.get(i);
            if (d.features().size(1) != gradients.spec().nIn()) {
                throw new IllegalArgumentException("node " + i + " has " + d.features().size(1) + " features but the model takes "
                        + gradients.spec().nIn());
            }
            if (d.size() == 0) {
                throw new IllegalArgumentException("node " + i + " has no data; give every node at least one example");
            }
            rows[i] = java.util.stream.IntStream.range(0, (int) d.size()).toArray();
            // The local loss is the sum over the node's examples on a task that defines its users, the mean otherwise.
            lossScale[i] = sumObjective ? 1.0 : 1.0 / d.size();
        }
        this.batch = new NodeBatches(nodes, type).gather(rows);
        this.lossScaleColumn = Nd4j.createFromArray(lossScale).reshape(n, 1).castTo(type);
        INDArray start = template.params().dup().castTo(type).reshape(1, gradients.spec().numParams());
        this.theta = Nd4j.create(type, n, gradients.spec().numParams());
        theta.addiRowVector(start);
        this.grad = Nd4j.create(type, n, gradients.spec().numParams());
    }

    /** Sets up a run. */
    public static MuffliatoRunBuilder builder() {
        return new MuffliatoRunBuilder();
    }

    @Override
    protected void takeStep(long round) {
        if (round >= config.rounds()) {
            throw new IllegalStateException("all " + config.rounds() + " rounds are done");
        }
        if (privacy != null) {
            List<Charge> charges = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                charges.add(privacy.roundOf(i));
            }
            spend(charges);
        }
        try (var ws = workspace.open()) {
            ClippedBatch b = gradients.clippedSum(theta, batch.features(), batch.labels(), batch.mask(), batch.featureSquaredNorms(),
                    Double.POSITIVE_INFINITY, grad);
            double loss = 0;
            for (int i = 0; i < n; i++) {
                loss += b.lossSums().getDouble(i) * lossScale[i];
            }
            measuredLoss(loss / n);
            grad.muliColumnVector(lossScaleColumn);
            RowClipping.clip(grad, config.clip());
            if (config.sigma() > 0) {
                streams.addPrivateNoise(grad, round, config.sigma());
            }
            INDArray x = theta.sub(grad.muli(config.stepSize()));
            theta.assign(gossip.apply(x, config.gossipSteps()));
        }
    }

    /** Every round charges every node its release. */
    @Override
    public java.util.Optional<org.dpdl4j.privacy.ledger.PrivacyLedger> plannedLedger() {
        return privacy == null ? java.util.Optional.empty()
                : java.util.Optional.of(privacy.plannedLedger(n, ledger().orElseThrow().secureNoise()));
    }

    @Override
    public long plannedSteps() {
        return config.rounds();
    }

    @Override
    public String stepUnit() {
        return "round";
    }

    /** The average of the node models. */
    @Override
    public INDArray parameters() {
        return theta.mean(0).reshape(theta.size(1));
    }

    @Override
    public java.util.Optional<INDArray> partyParameters() {
        return java.util.Optional.of(theta.dup());
    }

    @Override
    public MultiLayerNetwork model() {
        return withParameters(template, parameters());
    }

    public MuffliatoConfig config() {
        return config;
    }

    /** The accounting of a private run (null without noise). */
    public MuffliatoPrivacy privacy() {
        return privacy;
    }

    @Override
    public java.util.Map<String, Object> resolved() {
        java.util.Map<String, Object> r = new java.util.LinkedHashMap<>();
        r.put("nodes", n);
        r.put("rounds", config.rounds());
        r.put("gossipSteps", config.gossipSteps());
        r.put("gossip", config.scheme().label());
        r.put("contraction", gossip.contraction());
        r.put("stepSize", config.stepSize());
        if (privacy != null) {
            r.put("clip", config.clip());
            r.put("sigma", config.sigma());
            // the pairwise figures are those of the current settings: after a resume under changed settings they would
            // leave out what the earlier segments spent (privacy.txt says so), so they are not shown as the run's
            if (ledger().orElseThrow().segment() == 0) {
                PairwiseSummary s = privacy.pairwise();
                r.put("pairwiseEpsilonMean", s.mean());
                r.put("pairwiseEpsilonMax", s.max());
            }
        }
        return r;
    }

    @Override
    public String privacyStatement() {
        if (privacy == null) {
            return "";
        }
        return LedgerStatement.resumedPreamble(ledger().orElseThrow())
                + String.format(Locale.ROOT, "Privacy statement: Muffliato-GD, each node's whole local dataset (%s)%n"
                        + "  per round: %s%n  L = %s, sigma = %s, %d nodes, %d rounds, %d %s gossip steps per round (contraction %.6g)%n",
                privacy.relation(), mechanism, config.clip(), config.sigma(), n, config.rounds(), config.gossipSteps(),
                config.scheme().label(), gossip.contraction())
                + privacy.statement(ledger().orElseThrow())
                + LedgerStatement.text(ledger().orElseThrow());
    }

    @Override
    public RunState state() {
        return RunState.builder().array("theta", theta).build();
    }

    @Override
    protected void restoreState(RunState state, long savedRound) {
        if (savedRound > config.rounds()) {
            throw new IllegalArgumentException("the saved run is at round " + savedRound + " but this run has " + config.rounds() + " rounds");
        }
        theta.assign(state.array("theta", theta.shape()));
    }

    @Override
    public void close() {
        workspace.close();
    }
}
