package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.graph.SparseRowOperator;
import org.dpdl4j.optim.BatchSampler;
import org.dpdl4j.optim.BlockDevice;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.DeviceEngines;
import org.dpdl4j.optim.DeviceNodeModels;
import org.dpdl4j.optim.DeviceRun;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.privacy.noise.PairwiseNoise;
import org.dpdl4j.privacy.noise.PhiloxNoiseStreams;
import org.dpdl4j.runtime.NodeBatches;
import org.dpdl4j.runtime.RoundWorkspace;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.BatchRows;
import org.dpdl4j.runtime.PaddedBatch;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.runtime.engine.BlockEngine;
import org.dpdl4j.runtime.engine.BlockRunner;
import org.dpdl4j.runtime.engine.ConstructedBlocks;
import org.dpdl4j.runtime.engine.DeviceDistributableRun;
import org.dpdl4j.runtime.engine.PartyBlocks;
import org.dpdl4j.runtime.engine.Rows;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Decentralized SGD on a graph with the n node models as the rows of one [n, p] matrix (each row in
 * DL4J's flattened parameter layout, so any row can be loaded into the template network). One round,
 * for every node at once (Decor, eq. 3-4):
 * <ol>
 *   <li>clipped gradients of all nodes from one batched per-example pass: per example then averaged
 *       (example-level privacy), or the whole local gradient (user-level privacy);</li>
 *   <li>private noise {@code w_i ~ N(0, sigma_cdp^2 I)} from each node's own stream;</li>
 *   <li>pairwise noise {@code sum_j v_ij}, {@code v_ij = -v_ji ~ N(0, sigma_cor^2 I)}, regenerated every round
 *       from the edge's secret and the round;</li>
 *   <li>the local step {@code x <- (1 - eta lambda) x - eta (g + w + sum_j v_ij)};</li>
 *   <li>gossip {@code X <- W X}, over the non-zeros of W only (linear in the number of edges).</li>
 * </ol>
 * The noise of the next round is drawn on a background thread while the current one computes.
 *
 * <p>{@link #distribute} moves the rounds to blocks of nodes placed by a {@link BlockEngine} (a cluster): each block
 * runs steps 1-4 for its rows ({@link DecentralizedBlock}) and gossips from the messages its nodes receive; this
 * object keeps the ledger, the listeners and observers, and the node models it reports and checkpoints, which it
 * mixes from the last round's messages when asked for them.
 */
public final class DecentralizedTrainer extends AbstractTrainingRun implements DeviceDistributableRun, DeviceRun {
    private final DecentralizedConfig config;
    private final Graph graph;
    private final MixingMatrix mixing;
    private final List<NodeData> data;
    private final NoiseStreams streams;
    private final PerExampleGradients engine;
    private final MultiLayerNetwork template;
    private final List<BatchSampler> samplers = new ArrayList<>();
    /** The per-node divisor of a MEAN objective when it does not depend on the batch drawn (else null). */
    private final INDArray expectedBatchSizes;
    private final SparseRowOperator gossip;
    private final NodeBatches batches;
    private final RoundNoise noise;
    private final PairwiseNoise correlated;
    private final DataType type;
    private INDArray params;
    private INDArray gossiped;
    private BlockEngine blockEngine;
    private PartyBlocks split;
    private BlockRunner<DecentralizedBlockInput, DecentralizedBlockOutput> blocks;
    /** On blocks: whether {@code gossiped} holds the last round's messages, and {@code params} is yet to be mixed from them. */
    private boolean messagesPending;
    private final RoundWorkspace workspace = new RoundWorkspace();
    private final RoundBatches roundBatches;
    private final List<RoundObserver> observers = new ArrayList<>();
    /** On blocks: the rows of the last round's messages each block's nodes receive. */
    private final List<int[]> gossipRows = new ArrayList<>();
    private final DecentralizedPrivacy privacy;
    private final String mechanism;
    /** Audit contributions added to the clipped gradients; null in every ordinary run. */
    private PlantedContributions planted;
    /** The node models on an accelerator, which then runs the rounds; null on the CPU. */
    private DeviceNodeModels device;
    /** The device asked for (auto until {@link #useDevice}), which blocks of nodes also take. */
    private ComputeDevice requested = ComputeDevice.AUTO;
    /** Whether the device keeps the nodes' data, so that a round sends only which rows make its batch. */
    private boolean dataOnDevice;
    /** Whether the device draws a private round's noise itself (Philox streams, and room for the edges' rows). */
    private boolean philoxOnDevice;
    /** Whether the device was chosen (by {@link #useDevice}, or automatically before the first round). */
    private boolean deviceChosen;
    /** Whether {@code params} is older than the models on the device. */
    private boolean hostBehind;

    /**
     * Builds a run; {@link DecentralizedRunBuilder} (from {@link #builder()}) sets everything up.
     *
     * @param template initialised network whose parameters every node starts from (all nodes start equal)
     * @param graph    communication graph (node i holds {@code data.get(i)})
     * @param mixing   gossip matrix on that graph
     * @param data     local datasets, one per node
     * @param config   algorithm settings
     * @param streams  where every noise term and every batch comes from
     * @param privacy  the per-round mechanism of a private algorithm (null for D-SGD)
     * @param ledger   the run's ledger (null for D-SGD)
     * @param settings the settings the run was built from
     * @param partitionReport how the training data was split over the nodes (null when the nodes' data was given)
     */
    DecentralizedTrainer(MultiLayerNetwork template, Graph graph, MixingMatrix mixing, List<NodeData> data,
                         DecentralizedConfig config, NoiseStreams streams, DecentralizedPrivacy privacy, RunLedger ledger,
                         RunSettings settings, String partitionReport) {
        super(config.algorithm().cliName(), settings, ledger);
        if (config.algorithm().isPrivate() != (privacy != null) || (privacy != null) != (ledger != null)) {
            throw new IllegalArgumentException(config.algorithm().cliName() + (config.algorithm().isPrivate()
                    ? " is private: it needs its per-round mechanism and a ledger" : " adds no noise: it has no mechanism or ledger"));
        }
        this.privacy = privacy;
        this.mechanism = privacy == null ? null : privacy.describe();
        partitionReport(partitionReport);
        this.template = Objects.requireNonNull(template, "template network");
        this.graph = Objects.requireNonNull(graph, "graph");
        this.mixing = Objects.requireNonNull(mixing, "mixing matrix");
        this.data = List.copyOf(data);
        this.config = Objects.requireNonNull(config, "config");
        if (ledger != null && config.compatibility().any()) {
            ledger.markNotAGuarantee(config.compatibility().notAGuarantee());
        }
        this.streams = Objects.requireNonNull(streams, "noise streams");
        int n = graph.vertexCount();
        if (this.data.size() != n) {
            throw new IllegalArgumentException("the graph has " + n + " nodes but " + this.data.size() + " local datasets were given");
        }
        if (mixing.size() != n) {
            throw new IllegalArgumentException("the mixing matrix is " + mixing.size() + "x" + mixing.size() + " for " + n + " nodes");
        }
        this.engine = PerExampleGradients.of(template);
        this.type = engine.spec().dataType();
        for (int i = 0; i < n; i++) {
            NodeData d = this.data.get(i);
            if (d.features().size(1) != engine.spec().nIn()) {
                throw new IllegalArgumentException("node " + i + " has " + d.features().size(1) + " features but the model takes "
                        + engine.spec().nIn());
            }
            samplers.add(LocalGradients.sampler(config, d.size(), i));
        }
        this.expectedBatchSizes = LocalGradients.dividesByExpectedSize(config) ? LocalGradients.divisor(samplers, null, type) : null;
        this.gossip = SparseRowOperator.of(mixing.toINDArray(DataType.DOUBLE));
        this.batches = new NodeBatches(this.data, type);
        this.roundBatches = new RoundBatches(batches, config.sampling() == SamplingScheme.FULL_BATCH);
        this.params = Nd4j.tile(template.params().reshape(1, engine.spec().numParams()).castTo(type), n, 1);
        this.gossiped = Nd4j.create(type, n, engine.spec().numParams());
        boolean decor = config.algorithm() == DecentralizedAlgorithm.DECOR;
        this.correlated = decor ? new PairwiseNoise(graph, mixing, config.compatibility().scaleByMixingWeight(), type) : null;
        double sigmaCdp = config.algorithm().isPrivate() ? config.sigmaCdp() : 0.0;
        this.noise = new RoundNoise(streams, correlated, n, engine.spec().numParams(), sigmaCdp, decor ? config.sigmaCor() : 0.0,
                config.compatibility().pairwiseNoiseDrawnOnce(), type, config.algorithm().isPrivate());
    }

    /** Plants audit contributions (the builder's {@code planted}); only before the first round. */
    void plant(PlantedContributions contributions) {
        if (round() != 0) {
            throw new IllegalStateException("contributions are planted before the first round, not after round " + round());
        }
        if (device != null) {
            throw new IllegalStateException("a run with planted audit contributions runs on the CPU, and this one was put"
                    + " on " + device.describe() + ": plant them before choosing a device");
        }
        this.planted = Objects.requireNonNull(contributions, "planted contributions");
    }

    /** One round (all nodes: gradient, noise, local step, gossip), after the ledger has accepted its release. */
    @Override
    protected void takeStep(long round) {
        if (privacy != null) {
            spend(privacy.perRound(), mechanism);
        }
        if (blocks != null) {
            roundOnBlocks(round);
            return;
        }
        if (!deviceChosen) {
            useDevice(ComputeDevice.AUTO);
        }
        // Every temporary of the round lives in a workspace reset at the end of the round; the node models are
        // updated in place and gossip writes into a second persistent buffer, so nothing outlives its round.
        try (MemoryWorkspace ws = workspace.open()) {
            if (device != null) {
                roundOnDevice(round);
            } else {
                roundInWorkspace(round);
            }
        }
    }

    /**
     * Runs the rounds from the next one on {@code choice}: {@code cuda} keeps every node model on the GPU (the device
     * engine's {@link DeviceNodeModels}) and runs the whole round there; {@code cpu} here; {@code auto} (what a run does
     * when nobody chooses) the GPU when an installed engine can run here and keep these models, else the CPU. A run on
     * blocks chose each block's device when it was distributed ({@link #distribute(BlockEngine, ComputeDevice)}); a
     * run with planted audit contributions runs on the CPU.
     *
     * @throws org.dpdl4j.optim.DeviceUnavailableException when {@code cuda} is asked for and cannot be used, saying why
     */
    @Override
    public void useDevice(ComputeDevice choice) {
        String cpuOnly = blocks != null ? "a run on blocks of nodes (--engine " + blockEngine.describe() + ") chose each"
                + " block's device when it was distributed (distribute(engine, device))" : planted != null
                ? "a run with planted audit contributions runs on the CPU" : null;
        moveTo(DeviceEngines.selectNodeModels(choice, engine.spec(), graph.vertexCount(), cpuOnly));
        requested = choice;
    }

    /**
     * Runs the rounds from the next one on node models a caller opened (e.g. on a device engine's reference backend),
     * which this run then closes; null for the CPU.
     */
    public void useNodeModels(DeviceNodeModels given) {
        if (given != null && (blocks != null || planted != null)) {
            throw new IllegalStateException("a run on blocks or with planted audit contributions runs on the CPU");
        }
        if (given != null && given.nodes() != graph.vertexCount()) {
            throw new IllegalArgumentException("the run has " + graph.vertexCount() + " nodes, the device models "
                    + given.nodes());
        }
        moveTo(given);
    }

    private void moveTo(DeviceNodeModels chosen) {
        INDArray models = models();
        if (device != null) {
            device.close();
        }
        device = chosen;
        deviceChosen = true;
        dataOnDevice = false;
        philoxOnDevice = false;
        if (device != null) {
            device.mixing(gossip.rowStarts(), gossip.nonZeroColumns(), gossip.nonZeroValues());
            philoxOnDevice = config.algorithm().isPrivate() && streams instanceof PhiloxNoiseStreams;
            if (philoxOnDevice && correlated != null && correlated.edgeCount() > 0) {
                SparseRowOperator b = correlated.incidence();
                // where the edges' rows do not fit beside the models, the host draws the noise from the same streams
                philoxOnDevice = device.pairwiseIncidence(b.rowStarts(), b.nonZeroColumns(), b.nonZeroValues(),
                        correlated.edgeCount());
            }
            device.upload(models);
            dataOnDevice = device.holdData(batches.features(), batches.labels(), batches.featureSquaredNorms());
        }
        // on a device the host's cores are free for the noise drawn here (streams that draw row by row, as the secure ones)
        noise.shareWith(device != null && streams.drawsRowByRow()
                ? RoundNoise.helpersBeside(Runtime.getRuntime().availableProcessors()) : 0);
    }

    /** One round with the node models on the device: the round of {@link #roundInWorkspace}, computed there. */
    private void roundOnDevice(long round) {
        double[] lossSums;
        int[] sizes;
        if (dataOnDevice) {
            BatchRows batch = nextRows(round);
            lossSums = LocalGradients.clippedLocalGradients(config, device, batch, expectedBatchSizes, samplers);
            sizes = batch.sizes();
        } else {
            PaddedBatch batch = nextBatch(round);
            lossSums = LocalGradients.clippedLocalGradients(config, device, batch, expectedBatchSizes, samplers);
            sizes = batch.sizes();
        }
        measured(LocalGradients.meanBatchLoss(lossSums, sizes));
        double lr = config.learningRate().at(round);
        if (philoxOnDevice && observers.isEmpty()) {
            // every node's and every edge's noise drawn there, the values RoundNoise draws here from these streams
            boolean pairwise = config.algorithm() == DecentralizedAlgorithm.DECOR && correlated.edgeCount() > 0;
            device.drawPhiloxNoise(((PhiloxNoiseStreams) streams).masterSeed(), round, config.sigmaCdp(),
                    config.compatibility().pairwiseNoiseDrawnOnce() ? 0 : round, pairwise ? config.sigmaCor() : 0.0);
            device.step(true, lr, config.weightDecay());
            device.mix();
            hostBehind = true;
            return;
        }
        RoundNoise.Draw drawn = config.algorithm().isPrivate() ? noise.forRound(round) : null;
        INDArray before = observers.isEmpty() ? null : models().dup();
        if (drawn != null) {
            device.uploadNoise(drawn.total());
        }
        device.step(drawn != null, lr, config.weightDecay());
        if (!observers.isEmpty()) {
            device.download(params);
            showObservers(round, before, drawn);
        }
        device.mix();
        hostBehind = true;
    }

    /** Where the rounds run: the device's description, or null on the CPU. */
    public String deviceDescription() {
        return device == null ? null : device.describe();
    }

    @Override
    public String computedOn() {
        if (blockEngine != null) {
            return "blocks of nodes on " + blockEngine.describe() + " (each block on the device its executor chose)";
        }
        return device != null ? device.describe() + (philoxOnDevice ? ", noise drawn there (Philox) while no observer is"
                + " attached" : "")
                : "host engine";
    }

    private void roundInWorkspace(long round) {
        int n = graph.vertexCount();
        PaddedBatch batch = nextBatch(round);
        INDArray grad = Nd4j.create(type, n, engine.spec().numParams());
        var result = LocalGradients.clippedLocalGradients(config, engine, params, batch, expectedBatchSizes, samplers, grad);
        if (planted != null) {
            planted.addTo(round, grad);
        }
        measured(LocalGradients.meanBatchLoss(result.lossSums().toDoubleVector(), batch.sizes()));
        RoundNoise.Draw drawn = null;
        if (config.algorithm().isPrivate()) {
            drawn = noise.forRound(round);
            grad.addi(drawn.total());
        }
        INDArray before = observers.isEmpty() ? null : params.dup();
        LocalGradients.descend(config, round, params, grad);
        if (!observers.isEmpty()) {
            showObservers(round, before, drawn);
        }
        gossip.apply(params, gossiped);
        INDArray swap = params;
        params = gossiped;
        gossiped = swap;
    }

    /**
     * Shows the observers this round's messages: the models before the step and after it ({@code params}, not yet
     * gossiped) with the edges' noise. They run outside the round's workspace, so what they compute and keep outlives
     * the round.
     */
    private void showObservers(long round, INDArray before, RoundNoise.Draw drawn) {
        RoundTap tap = new RoundTap(round, config.learningRate().at(round), config.weightDecay(), before, params,
                drawn == null ? null : drawn.edgeNoise(), graph);
        try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
            for (RoundObserver o : observers) {
                o.onRound(tap);
            }
        }
    }

    private void measured(OptionalDouble loss) {
        if (loss.isPresent()) {
            measuredLoss(loss.getAsDouble());
        } else {
            measuredNoLoss();
        }
    }

    /**
     * One round on the blocks: each is sent its nodes' models (first round, after a restore) or the messages they
     * received, and returns its nodes' messages and losses. Nothing changes here until every block has returned and the
     * loss is finite, so a failed round leaves the run where it was.
     */
    private void roundOnBlocks(long round) {
        List<DecentralizedBlockInput> inputs = new ArrayList<>();
        for (int b = 0; b < split.count(); b++) {
            inputs.add(messagesPending
                    ? DecentralizedBlockInput.received(Rows.ofRows(gossiped, gossipRows.get(b)))
                    : DecentralizedBlockInput.models(Rows.ofRange(params, split.first(b), split.end(b) - split.first(b))));
        }
        List<DecentralizedBlockOutput> outputs = blocks.step(round, inputs);
        int n = graph.vertexCount();
        double[] lossSums = new double[n];
        int[] sizes = new int[n];
        for (int b = 0; b < outputs.size(); b++) {
            DecentralizedBlockOutput o = outputs.get(b);
            System.arraycopy(o.lossSums(), 0, lossSums, split.first(b), o.lossSums().length);
            System.arraycopy(o.batchSizes(), 0, sizes, split.first(b), o.batchSizes().length);
        }
        measured(LocalGradients.meanBatchLoss(lossSums, sizes));
        INDArray before = observers.isEmpty() ? null : models().dup();
        for (int b = 0; b < outputs.size(); b++) {
            outputs.get(b).messages().copyInto(gossiped, split.first(b));
        }
        messagesPending = true;
        if (!observers.isEmpty()) {
            INDArray edgeNoise = null;
            if (correlated != null && config.algorithm().isPrivate() && config.sigmaCor() > 0) {
                // What the ends of each edge drew: the observers play parties of a simulation that holds every key.
                edgeNoise = Nd4j.create(type, correlated.edgeCount(), engine.spec().numParams());
                streams.writePairwiseNoise(edgeNoise, config.compatibility().pairwiseNoiseDrawnOnce() ? 0 : round, config.sigmaCor());
            }
            RoundTap tap = new RoundTap(round, config.learningRate().at(round), config.weightDecay(), before, gossiped, edgeNoise, graph);
            for (RoundObserver o : observers) {
                o.onRound(tap);
            }
        }
    }

    /**
     * The node models: after a round on blocks, mixed here from its messages with the operator the blocks use; after a
     * round on the device, copied from there.
     */
    private INDArray models() {
        if (hostBehind) {
            device.download(params);
            hostBehind = false;
        }
        if (messagesPending) {
            gossip.apply(gossiped, params);
            messagesPending = false;
        }
        return params;
    }

    @Override
    public ComputeDevice requestedDevice() {
        return requested;
    }

    /**
     * Runs every later round on blocks of nodes placed by {@code placement} (which this run then closes), each block's
     * node models opened by {@code blockDevice} where the block runs (a block on a GPU keeps its nodes' data there and
     * computes its nodes' gradients, noise and step there; the gossip from the messages it received stays on its host,
     * as the messages do). Each block gets its nodes' data, the keys of its nodes and of their edges, and its rows of the
     * mixing and incidence matrices; with seeded streams on CPUs the rounds are those of this process, bit for bit. Node
     * models this run had on a device here are copied back and freed.
     */
    @Override
    public void distribute(BlockEngine placement, BlockDevice blockDevice) {
        Objects.requireNonNull(blockDevice, "block device");
        if (blockEngine != null) {
            throw new IllegalStateException("this run already runs on " + blockEngine.describe());
        }
        if (planted != null) {
            throw new IllegalStateException("a run with planted contributions runs in one process: the blocks do not"
                    + " carry them");
        }
        if (device != null) {
            moveTo(null);   // the rounds leave this process's device: the models come back first
        }
        deviceChosen = true;
        int n = graph.vertexCount();
        long p = engine.spec().numParams();
        PartyBlocks parts = PartyBlocks.of(n, placement.blocksFor(n));
        long[] sizes = data.stream().mapToLong(NodeData::size).toArray();
        String json = template.getLayerWiseConfigurations().toJson();
        List<DecentralizedBlockPlan> plans = new ArrayList<>();
        gossipRows.clear();
        for (int b = 0; b < parts.count(); b++) {
            int from = parts.first(b);
            int to = parts.end(b);
            var mixingRows = gossip.rows(from, to, p);
            var incidenceRows = correlated == null ? null : correlated.incidenceRows(from, to, p);
            List<Rows> features = new ArrayList<>();
            List<Rows> labels = new ArrayList<>();
            for (int i = from; i < to; i++) {
                features.add(Rows.of(data.get(i).features()));
                labels.add(Rows.of(data.get(i).labels()));
            }
            int[] edges = incidenceRows == null ? new int[0] : incidenceRows.reads();
            plans.add(new DecentralizedBlockPlan(b, from, to - from, json, config, features, labels, sizes,
                    streams.restrictedTo(parts.members(b), edges), mixingRows, incidenceRows, blockDevice));
            gossipRows.add(mixingRows.reads());
        }
        this.blocks = placement.start(protocol(), plans, new ConstructedBlocks<>(DecentralizedBlock::new));
        this.split = parts;
        this.blockEngine = placement;
    }

    @Override
    public BlockEngine engine() {
        return blockEngine;
    }

    /** This round's batches; with full local batches they never change, so they are gathered once. */
    private PaddedBatch nextBatch(long round) {
        return roundBatches.batch(() -> sampledRows(round));
    }

    /** Which rows of the nodes' data make the round's batch. */
    private BatchRows nextRows(long round) {
        return roundBatches.rows(() -> sampledRows(round));
    }

    /** Each node's sample of the round, from its own stream, as rows of the nodes' data. */
    private BatchRows sampledRows(long round) {
        int n = graph.vertexCount();
        int[][] rows = new int[n][];
        for (int i = 0; i < n; i++) {
            rows[i] = samplers.get(i).sample(streams.sampling(i, round));
        }
        return batches.rows(rows, 1);
    }

    /**
     * Adds an observer of every round's messages (for attacks and diagnostics). Observers see copies of
     * what they are given only as long as the call lasts; keep copies of what you need.
     */
    public void addObserver(RoundObserver observer) {
        observers.add(Objects.requireNonNull(observer, "observer"));
    }

    /** A builder that sets up a run: graph, mixing matrix, partition, calibration, noise streams, ledger. */
    public static DecentralizedRunBuilder builder() {
        return new DecentralizedRunBuilder();
    }

    /** The [n, p] matrix of node models (a live view: copy it to keep it). */
    public INDArray params() {
        return models();
    }

    /** The average model {@code (1/n) sum_i x_i} as a [p] vector. */
    public INDArray averageModel() {
        return models().mean(0);
    }

    @Override
    public INDArray parameters() {
        return averageModel();
    }

    @Override
    public Optional<INDArray> partyParameters() {
        return Optional.of(models().dup());
    }

    @Override
    public MultiLayerNetwork model() {
        return withParameters(template, averageModel());
    }

    /** Rounds done so far. */
    public long round() {
        return completedSteps();
    }

    @Override
    public Optional<PrivacyLedger> plannedLedger() {
        return privacy == null ? Optional.empty() : plannedRepetition(privacy.perRound(), mechanism);
    }

    @Override
    public long plannedSteps() {
        return config.rounds();
    }

    /**
     * The adversary and Decor's reference mode: rounds priced against one adversary do not bound what another learns, and
     * the reference code's rounds are not covered by the ledger, so neither composes with a saved ledger of the other.
     */
    @Override
    public java.util.Map<String, String> settingsFixedOnResume() {
        return java.util.Map.of(DecentralizedOptions.ADVERSARY.name(),
                org.dpdl4j.privacy.accounting.correlated.Adversary.eavesdropper().name(), DecentralizedOptions.REFERENCE_COMPAT.name(), "");
    }

    @Override
    public String stepUnit() {
        return "round";
    }

    @Override
    public java.util.Map<String, Object> resolved() {
        java.util.Map<String, Object> r = new java.util.LinkedHashMap<>();
        r.put("nodes", graph.vertexCount());
        r.put("edges", graph.edgeCount());
        r.put("rounds", config.rounds());
        r.put("batchSize", config.batchSize());
        r.put("sampling", config.sampling().name().toLowerCase(java.util.Locale.ROOT));
        r.put("learningRate", config.learningRate().toString());
        if (privacy != null) {
            r.put("unit", config.unit().name().toLowerCase(java.util.Locale.ROOT));
            r.put("clipNorm", config.clipNorm());
            r.put("sigmaCdp", config.sigmaCdp());
            r.put("sigmaCor", config.sigmaCor());
            r.put("kappa", privacy.kappaValue());
            r.put("adversary", privacy.adversary().describe());
        }
        if (config.compatibility().any()) {
            r.put("compatibility", config.compatibility().toString());
        }
        return r;
    }

    /**
     * The per-round analysis (unit, relation, kappa and its exactness, the noise levels), then the ledger (whose warning
     * says when reference-code compatibility changes the algorithm).
     */
    @Override
    public String privacyStatement() {
        if (privacy == null) {
            return "";
        }
        RunLedger l = ledger().orElseThrow();
        StringBuilder s = new StringBuilder(org.dpdl4j.privacy.ledger.LedgerStatement.resumedPreamble(l));
        s.append("Privacy statement: ").append(config.algorithm().cliName()).append(", ")
                .append(config.unit().name().toLowerCase(java.util.Locale.ROOT)).append("-level (")
                .append(privacy.relation()).append(")\n");
        s.append("  per round: ").append(mechanism).append('\n');
        if (privacy.kappa() != null) {
            s.append(String.format(java.util.Locale.ROOT, "  kappa = %.6g (%s, adversary: %s)%n", privacy.kappa().kappa(),
                    privacy.kappa().exactness().name().toLowerCase(java.util.Locale.ROOT), privacy.adversary().describe()));
        }
        s.append(String.format(java.util.Locale.ROOT, "  sigma_cdp = %s, sigma_cor = %s, C = %s, %d nodes, %d rounds planned%n",
                config.sigmaCdp(), config.sigmaCor(), config.clipNorm(), graph.vertexCount(), config.rounds()));
        return s + org.dpdl4j.privacy.ledger.LedgerStatement.text(l);
    }

    /** The per-round mechanism (null for D-SGD). */
    public DecentralizedPrivacy privacy() {
        return privacy;
    }

    @Override
    public RunState state() {
        return RunState.builder().array("node_models", models()).build();
    }

    @Override
    protected void restoreState(RunState state, long completedRounds) {
        this.params.assign(state.array("node_models", params.shape()).castTo(type));
        messagesPending = false;
        hostBehind = false;
        if (device != null) {
            device.upload(params);
        }
    }

    public DecentralizedConfig config() {
        return config;
    }

    public Graph graph() {
        return graph;
    }

    public MixingMatrix mixing() {
        return mixing;
    }

    public NoiseStreams streams() {
        return streams;
    }

    public MultiLayerNetwork template() {
        return template;
    }

    public List<NodeData> data() {
        return data;
    }

    @Override
    public void close() {
        if (device != null) {
            device.close();
            device = null;
        }
        noise.close();
        workspace.close();
        if (blocks != null) {
            blocks.close();
        }
        if (blockEngine != null) {
            blockEngine.close();
        }
    }

    @Override
    protected String divergenceHint() {
        return "lower the learning rate (--lr) or the clip (--clip)";
    }
}
