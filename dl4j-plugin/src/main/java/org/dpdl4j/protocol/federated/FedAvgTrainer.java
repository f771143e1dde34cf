package org.dpdl4j.protocol.federated;

import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.accounting.CorrelatedGaussianEvent;
import org.dpdl4j.protocol.federated.verification.RoundVerification;
import org.dpdl4j.protocol.federated.verification.SpotCheckedGopa;
import java.util.Optional;
import org.dpdl4j.runtime.UpdateNoise;
import org.dpdl4j.optim.RowClipping;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.optim.BlockDevice;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.DeviceEngines;
import org.dpdl4j.optim.DeviceRun;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.ArrayMemory;
import org.dpdl4j.runtime.NodeData;
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
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.List;
import java.util.Objects;

/**
 * FedAvg and its private variants (spec 7.1-7.3) with the participants' local models as the rows of one
 * matrix. One round:
 * <ol>
 *   <li>the server draws the participants ({@link ClientSampling}, from {@code serverStreams.sampling(0, round)});</li>
 *   <li>every participant runs L local SGD steps from the global model (one batched pass per step for all of
 *       them) and forms its update {@code Delta_k};</li>
 *   <li>aggregation, by variant: FedAvg averages with weights 1/K or {@code m_k / sum m}; DP-FedAvg local clips each
 *       update to S and adds {@code N(0, (zS)^2 I)} from the client's stream; DP-FedAvg central clips at the server,
 *       sums and adds {@code N(0, (zS)^2 I)} from {@code serverStreams.privateNoise(0, round)}; GOPA clips and
 *       reveals through {@link GopaAveraging}. The private variants divide the noisy sum by the expected number of
 *       participants, a data-independent divisor;</li>
 *   <li>{@code theta <- theta + serverRate * average}.</li>
 * </ol>
 *
 * <p>{@link #distribute} moves the clients' part (local training and what they do to their updates) onto blocks of
 * clients placed by a {@link BlockEngine}; the server's part stays here. With seeded streams the rounds are those of
 * one process, bit for bit.
 */
public final class FedAvgTrainer extends AbstractTrainingRun implements DeviceDistributableRun, DeviceRun {
    private final MultiLayerNetwork template;
    private final List<NodeData> clients;
    private final FedAvgConfig config;
    private final NoiseStreams clientStreams;
    private final NoiseStreams serverStreams;
    private final LocalTraining local;
    /** Whether the local steps' device was chosen (by {@link #useDevice}, or automatically before the first round). */
    private boolean deviceChosen;
    /** The device asked for (auto until {@link #useDevice}), which blocks of clients also take. */
    private ComputeDevice requested = ComputeDevice.AUTO;
    private final GopaAveraging gopa;
    private final INDArray theta;
    private final double[] sizes;
    private final PlantedClients planted;
    private final int clientCount;
    private final FedAvgPrivacy privacy;
    private final String mechanism;
    private String adversary = "-";
    private GopaAccountant gopaAccountant;
    private Graph gopaGraph;
    private int[] lastParticipants = new int[0];
    private INDArray lastMessages;
    /** A round released on the device whose messages have not been copied out (they are when read). */
    private DeviceRelease releasedOnDevice;
    /** Whether the device draws GOPA's noise itself ({@link #drawsGopaNoiseOnDevice}). */
    private boolean gopaNoiseOnDevice;
    private BlockEngine blockEngine;
    private PartyBlocks split;
    private BlockRunner<FedAvgBlockInput, FedAvgBlockOutput> blocks;
    /** The name of the verification log in a checkpoint's state. */
    private static final String VERIFICATION_STATE = "verification";
    private SpotCheckedGopa verification;
    private VerificationLog verificationLog;

    /**
     * @param template      network whose parameters are the starting global model
     * @param clients       the clients' local datasets
     * @param config        the run's settings
     * @param clientStreams the clients' streams: local batches, their private noise, pairwise secrets (GOPA)
     * @param serverStreams the server's streams: participant selection and central noise
     * @param gopaGraph     GOPA's pairwise-secret graph over the clients (GOPA only, else null)
     * @param privacy       the per-round accounting of a private variant (null for FedAvg)
     * @param ledger        the run's ledger (null for FedAvg)
     * @param settings      the settings the run was built from
     * @param partitionReport how the data was split over the clients, or null
     */
    public FedAvgTrainer(MultiLayerNetwork template, List<NodeData> clients, FedAvgConfig config, NoiseStreams clientStreams,
                         NoiseStreams serverStreams, Graph gopaGraph, FedAvgPrivacy privacy, RunLedger ledger, RunSettings settings,
                         String partitionReport) {
        this(template, clients, config, clientStreams, serverStreams, gopaGraph, privacy, ledger, settings, partitionReport, null);
    }

    /**
     * A run with planted clients after the real ones ({@link FedAvgRunBuilder#planted}); the others as above.
     *
     * @param planted clients whose updates are given (a private variant other than GOPA), or null for none
     */
    FedAvgTrainer(MultiLayerNetwork template, List<NodeData> clients, FedAvgConfig config, NoiseStreams clientStreams,
                  NoiseStreams serverStreams, Graph gopaGraph, FedAvgPrivacy privacy, RunLedger ledger, RunSettings settings,
                  String partitionReport, PlantedClients planted) {
        super(config.variant().cliName(), settings, ledger);
        if (config.variant().isPrivate() != (privacy != null) || (privacy != null) != (ledger != null)) {
            throw new IllegalArgumentException(config.variant().cliName() + (config.variant().isPrivate()
                    ? " is private: it needs its per-round accounting and a ledger" : " adds no noise: it has no accounting or ledger"));
        }
        this.privacy = privacy;
        this.mechanism = privacy == null ? null : privacy.describe(config);
        if (privacy != null && privacy.notAGuarantee() != null) {
            ledger.markNotAGuarantee(privacy.notAGuarantee());
        }
        partitionReport(partitionReport);
        this.template = Objects.requireNonNull(template, "template network");
        this.clients = List.copyOf(clients);
        this.config = Objects.requireNonNull(config, "config");
        this.clientStreams = Objects.requireNonNull(clientStreams, "client streams");
        this.serverStreams = Objects.requireNonNull(serverStreams, "server streams");
        if (this.clients.isEmpty()) {
            throw new IllegalArgumentException("federated averaging needs at least one client");
        }
        PerExampleGradients gradients = PerExampleGradients.of(template);
        sizes = new double[this.clients.size()];
        for (int k = 0; k < sizes.length; k++) {
            NodeData d = this.clients.get(k);
            if (d.features().size(1) != gradients.spec().nIn()) {
                throw new IllegalArgumentException("client " + k + " has " + d.features().size(1) + " features but the model takes "
                        + gradients.spec().nIn());
            }
            sizes[k] = d.size();
        }
        if (planted != null && (config.variant() == FedAvgVariant.FEDAVG || config.variant() == FedAvgVariant.GOPA)) {
            throw new IllegalArgumentException("planted clients audit DP-FedAvg (local or central noise); " + config.variant().cliName()
                    + " takes none");
        }
        this.planted = planted;
        this.clientCount = sizes.length + (planted == null ? 0 : planted.count());
        config.sampling().expectedCount(clientCount);   // validates fixed-size sampling against the client count
        if (config.variant() == FedAvgVariant.GOPA) {
            Objects.requireNonNull(gopaGraph, "GOPA needs its pairwise-secret graph");
            if (gopaGraph.vertexCount() != sizes.length) {
                throw new IllegalArgumentException("GOPA's graph has " + gopaGraph.vertexCount() + " parties but there are "
                        + sizes.length + " clients");
            }
            double s = config.clipNorm();
            this.gopaGraph = gopaGraph;
            this.gopa = new GopaAveraging(gopaGraph, config.noiseMultiplier() * s, config.pairwiseMultiplier() * s,
                    gradients.spec().dataType());
        } else {
            if (gopaGraph != null) {
                throw new IllegalArgumentException(config.variant().cliName() + " uses no pairwise-secret graph; pass null");
            }
            this.gopa = null;
        }
        this.local = new LocalTraining(gradients, this.clients, config.localSteps(), config.localBatchSize());
        this.theta = template.params().dup().castTo(gradients.spec().dataType()).reshape(1, gradients.spec().numParams());
    }

    @Override
    protected void takeStep(long round) {
        if (privacy != null) {
            spend(privacy.perRound(), mechanism);
        }
        if (!deviceChosen && blocks == null) {
            useDevice(ComputeDevice.AUTO);
        }
        int[] participants = config.sampling().select(clientCount, serverStreams.sampling(0, round));
        lastParticipants = participants;
        freeLastMessages();
        INDArray average;
        if (participants.length == 0) {
            measuredNoLoss();
            lastMessages = null;
            average = config.variant() == FedAvgVariant.DP_CENTRAL ? centralNoiseOnly(round) : null;
        } else if (blocks != null) {
            average = aggregate(messagesFromBlocks(participants, round), participants, round);
        } else if (local.device() != null && planted == null && DeviceRelease.supports(config, verification != null)) {
            LocalTraining.Updates u = local.trainOnDevice(theta, participants, config.localRate().at(round), round,
                    clientStreams, 1);
            measuredLoss(u.meanLoss());
            releasedOnDevice = new DeviceRelease(local.device(), participants.length, theta.length(), theta.dataType(), gopa,
                    gopaNoiseOnDevice);
            average = releasedOnDevice.aggregate(config, participants, round, clientStreams, serverStreams, sizes,
                    clientCount);
        } else {
            INDArray deltas = planted == null ? trainedUpdates(participants, round) : updatesWithPlanted(participants, round);
            RoundVerification[] verified = new RoundVerification[1];
            INDArray messages = ClientRelease.release(config, deltas, participants, round, clientStreams, (clipped, r) -> {
                INDArray revealed = gopa.reveal(clipped, clientStreams, r);
                if (verification != null) {
                    verified[0] = verification.verify(r, clipped, revealed, clientStreams, this::chargeLostParties);
                    verificationLog.add(verified[0]);
                }
                return revealed;
            });
            if (messages != deltas) {
                ArrayMemory.release(deltas);   // GOPA sends what it revealed
            }
            average = verified[0] == null || verified[0].allPassed() ? aggregate(messages, participants, round)
                    : survivorsAverage(verified[0], messages);
        }
        if (average != null) {
            theta.addi(average.reshape(theta.shape()).muli(config.serverRate()));
        }
    }

    /**
     * Runs the clients' local steps from the next round on {@code choice}: {@code cuda} keeps the participants' models
     * on the GPU (room for every client) and runs their local SGD there, the updates coming back for the release and the
     * aggregation, which stay here; {@code cpu} here; {@code auto} (what a run does when nobody chooses) the GPU when an
     * installed engine can run here and keep these models, else the CPU. A run on blocks chose each block's device
     * when it was distributed ({@link #distribute(BlockEngine, ComputeDevice)}).
     *
     * @throws org.dpdl4j.optim.DeviceUnavailableException when {@code cuda} is asked for and cannot be used, saying why
     */
    @Override
    public void useDevice(ComputeDevice choice) {
        String cpuOnly = blocks != null ? "a run on blocks of clients (--engine " + blockEngine.describe() + ") chose each"
                + " block's device when it was distributed (distribute(engine, device))" : null;
        lastMessages();   // a round released on the device is read before the device goes
        local.useDevice(DeviceEngines.selectNodeModels(choice, local.spec(), clients.size(), cpuOnly));
        deviceChosen = true;
        requested = choice;
        gopaNoiseOnDevice = drawsGopaNoiseOnDevice();
    }

    @Override
    public ComputeDevice requestedDevice() {
        return requested;
    }

    /**
     * Runs the local steps from the next round on node models a caller opened (room for every client; e.g. on a device
     * engine's reference backend), which this run then closes; null for the CPU.
     */
    public void useNodeModels(org.dpdl4j.optim.DeviceNodeModels given) {
        if (given != null && blocks != null) {
            throw new IllegalStateException("a run on blocks of clients chose each block's device when it was distributed"
                    + " (distribute(engine, blockDevice))");
        }
        lastMessages();
        local.useDevice(given);
        deviceChosen = true;
        gopaNoiseOnDevice = drawsGopaNoiseOnDevice();
    }

    /**
     * Whether the device draws GOPA's noise itself: Philox streams, a graph with edges, and room for their rows there
     * (which this sets up); otherwise the host draws it from the same streams.
     */
    private boolean drawsGopaNoiseOnDevice() {
        if (local.device() == null || gopa == null || verification != null
                || !(clientStreams instanceof org.dpdl4j.privacy.noise.PhiloxNoiseStreams)
                || gopaGraph.edgeCount() == 0 || clientCount != gopaGraph.vertexCount()) {
            return false;
        }
        org.dpdl4j.graph.SparseRowOperator b = gopa.incidence();
        return local.device().pairwiseIncidence(b.rowStarts(), b.nonZeroColumns(), b.nonZeroValues(), gopaGraph.edgeCount());
    }

    /** Where the local steps run: the device's description, or null on the CPU. */
    public String deviceDescription() {
        return local.deviceDescription();
    }

    @Override
    public String computedOn() {
        if (blockEngine != null) {
            return "blocks of clients on " + blockEngine.describe() + " (each block's local steps on the device its executor"
                    + " chose; the release on its host)";
        }
        String device = local.deviceDescription();
        return device == null ? "host engine" : device + (DeviceRelease.supports(config, verification != null) && planted == null
                ? " (local steps, release and aggregation" + (gopaNoiseOnDevice ? "; GOPA's noise drawn there (Philox))" : ")")
                : " (local steps; release and aggregation on the host)");
    }

    /** The participants' local updates, with their mean loss recorded. */
    private INDArray trainedUpdates(int[] participants, long round) {
        LocalTraining.Updates u = local.run(theta, participants, config.localRate().at(round), round, clientStreams, 1);
        measuredLoss(u.meanLoss());
        return u.deltas();
    }

    /**
     * The real participants' local updates followed by the planted participants' given ones: the ids are increasing and
     * the planted clients come after the real ones, so the rows stay in participant order.
     */
    private INDArray updatesWithPlanted(int[] participants, long round) {
        int real = 0;
        while (real < participants.length && participants[real] < sizes.length) {
            real++;
        }
        int[] plantedIds = new int[participants.length - real];
        for (int j = 0; j < plantedIds.length; j++) {
            plantedIds[j] = participants[real + j] - sizes.length;
        }
        if (real == 0) {
            measuredNoLoss();
        }
        INDArray trained = real == 0 ? null : trainedUpdates(java.util.Arrays.copyOf(participants, real), round);
        if (plantedIds.length == 0) {
            return trained;
        }
        INDArray given = planted.updates(plantedIds, theta.length(), theta.dataType());
        if (trained == null) {
            return given;
        }
        INDArray both = Nd4j.vstack(trained, given);
        ArrayMemory.release(trained);
        ArrayMemory.release(given);
        return both;
    }

    /**
     * The round's messages from the blocks: each is sent the global model and its participants, and returns what they
     * send. The batch width is the round's widest participant's, which the server knows from the clients' sizes.
     */
    private INDArray messagesFromBlocks(int[] participants, long round) {
        int width = 1;
        for (int k : participants) {
            width = Math.max(width, LocalTraining.stepSize(config.localBatchSize(), (long) sizes[k]));
        }
        Rows global = Rows.of(theta);
        List<FedAvgBlockInput> inputs = new java.util.ArrayList<>();
        for (int b = 0; b < split.count(); b++) {
            int from = split.first(b);
            int to = split.end(b);
            inputs.add(new FedAvgBlockInput(global, java.util.Arrays.stream(participants).filter(k -> k >= from && k < to).toArray(), width));
        }
        List<FedAvgBlockOutput> outputs = blocks.step(round, inputs);
        double[] lossSums = outputs.stream().flatMapToDouble(o -> java.util.Arrays.stream(o.firstLossSums())).toArray();
        int[] batchSizes = outputs.stream().flatMapToInt(o -> java.util.Arrays.stream(o.firstSizes())).toArray();
        measuredLoss(LocalTraining.meanLoss(lossSums, batchSizes));
        return Nd4j.vstack(outputs.stream().filter(o -> o.messages() != null).map(o -> o.messages().toArray()).toArray(INDArray[]::new));
    }

    /**
     * Runs the clients' part of every later round on blocks of clients placed by {@code placement} (which this run then
     * closes): each block gets its clients' data and keys (and for GOPA its rows of the graph's incidence), and trains
     * them on the models {@code blockDevice} opens where it runs (a GPU there: the local steps there, the release on the
     * block's host; null models: its CPU).
     */
    @Override
    public void distribute(BlockEngine placement, BlockDevice blockDevice) {
        Objects.requireNonNull(blockDevice, "block device");
        if (blockEngine != null) {
            throw new IllegalStateException("this run already runs on " + blockEngine.describe());
        }
        if (planted != null) {
            throw new IllegalStateException("a run with planted clients runs in one process: the blocks would not know the"
                    + " planted clients' updates; audit without --engine");
        }
        if (verification != null) {
            throw new IllegalArgumentException("verified GOPA (--verify) runs its parties in one process: drop --engine, or drop --verify");
        }
        int n = sizes.length;
        long p = theta.length();
        PartyBlocks parts = PartyBlocks.of(n, placement.blocksFor(n));   // refuses before anything moves
        if (local.deviceDescription() != null) {
            useNodeModels(null);   // the rounds leave this process's device (the model is on the host): it is freed
        }
        deviceChosen = true;
        String json = template.getLayerWiseConfigurations().toJson();
        List<FedAvgBlockPlan> plans = new java.util.ArrayList<>();
        for (int b = 0; b < parts.count(); b++) {
            List<Rows> features = new java.util.ArrayList<>();
            List<Rows> labels = new java.util.ArrayList<>();
            for (int k = parts.first(b); k < parts.end(b); k++) {
                features.add(Rows.of(clients.get(k).features()));
                labels.add(Rows.of(clients.get(k).labels()));
            }
            var incidence = gopa == null ? null : gopa.incidenceRows(parts.first(b), parts.end(b), p);
            int[] edges = incidence == null ? new int[0] : incidence.reads();
            plans.add(new FedAvgBlockPlan(b, parts.first(b), parts.end(b) - parts.first(b), json, config, features, labels,
                    clientStreams.restrictedTo(parts.members(b), edges),
                    gopa == null ? null : new double[]{gopa.sigmaPrivate(), gopa.sigmaPairwise()}, incidence, blockDevice));
        }
        this.blocks = placement.start(protocol(), plans, new ConstructedBlocks<>(FedAvgBlock::new));
        this.split = parts;
        this.blockEngine = placement;
    }

    @Override
    public BlockEngine engine() {
        return blockEngine;
    }

    /**
     * The server's part: the weighted average (FedAvg), or clip, sum and noise (central DP), or the noisy sum over the
     * expected number of participants (local DP, GOPA), from the participants' messages.
     */
    private INDArray aggregate(INDArray deltas, int[] participants, long round) {
        int n = clientCount;
        if (config.variant() == FedAvgVariant.FEDAVG) {
            lastMessages = deltas;
            double[] w = config.weighting().weights(participants, sizes);
            return Nd4j.createFromArray(w).reshape(1, w.length).castTo(deltas.dataType()).mmul(deltas);
        }
        double sigma = config.noiseMultiplier() * config.clipNorm();
        double divisor = config.sampling().expectedCount(n);
        lastMessages = deltas;
        if (config.variant() == FedAvgVariant.DP_CENTRAL) {
            // The uplinks carried the raw updates (what the trusted server sees); it clips its own copy.
            INDArray clipped = deltas.dup();
            RowClipping.clip(clipped, config.clipNorm());
            INDArray sum = clipped.sum(0);
            ArrayMemory.release(clipped);
            serverStreams.privateNoise(0, round).addGaussian(sum, sigma);
            return sum.divi(divisor);
        }
        return deltas.sum(0).divi(divisor);   // local DP and GOPA: the clients clipped and noised their messages
    }

    /**
     * A verified round that lost parties: the survivors' mean from the verification's exact aggregate (their opened
     * terms with the lost parties removed), or no step when no party survived.
     */
    private INDArray survivorsAverage(RoundVerification verified, INDArray messages) {
        lastMessages = messages;
        double[] mean = verified.average();
        return mean == null ? null : Nd4j.createFromArray(mean).castTo(theta.dataType());
    }

    /**
     * Prices a round that lost parties, before the survivors open their terms with them: without those terms the
     * survivors' values hide behind fewer pairwise masks, so the round is charged conservatively as if no pairwise
     * noise protected them, {@code kappa = 1 / sigma_eta^2} (an upper bound on GOPA's kappa for any graph and
     * colluding set): the planned charge plus the difference, spent now. The budget may refuse it; then nothing
     * is opened and the round is not applied.
     */
    private void chargeLostParties(long round, java.util.SortedSet<Integer> lost) {
        double sigmaEta = gopa.sigmaPrivate();
        if (!(sigmaEta > 0)) {
            throw new IllegalStateException("round " + (round + 1) + " lost parties " + lost + ", and with sigma_eta = 0 the survivors'"
                    + " values keep no guarantee once their terms with them are opened: run verified GOPA with private noise");
        }
        double withoutPairwise = 1 / (sigmaEta * sigmaEta);
        double planned = privacy.kappa().kappa();
        if (withoutPairwise > planned) {
            spend(new CorrelatedGaussianEvent(withoutPairwise - planned, config.clipNorm()), String.format(java.util.Locale.ROOT,
                    "GOPA round %d lost parties %s (failed verification or dropped out): priced without pairwise noise,"
                            + " kappa 1/sigma_eta^2 = %.6g in all (planned %.6g)", round + 1, lost, withoutPairwise, planned));
        }
    }

    /**
     * Verifies every later round with spot checks of {@code verification.coordinatesPerRound()} coordinates (GOPA in one
     * process only).
     */
    void verifyWith(SpotCheckedGopa value) {
        if (gopa == null) {
            throw new IllegalArgumentException("only gopa commits to and proves its rounds; " + config.variant().cliName()
                    + " has nothing to verify");
        }
        this.verification = Objects.requireNonNull(value, "verification");
        this.verificationLog = new VerificationLog(sizes.length);
    }

    /** The spot checks of a verified GOPA run, if it is one. */
    public Optional<SpotCheckedGopa> verification() {
        return Optional.ofNullable(verification);
    }

    /** The rounds verified so far, if this run verifies. */
    public Optional<VerificationLog> verificationLog() {
        return Optional.ofNullable(verificationLog);
    }

    @Override
    public java.util.Map<String, String> reports() {
        if (verificationLog == null) {
            return super.reports();
        }
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>(super.reports());
        out.put(VerificationLog.FILE_NAME, verificationLog.csv());
        return out;
    }

    private INDArray centralNoiseOnly(long round) {
        INDArray sum = Nd4j.zeros(theta.dataType(), theta.length());
        serverStreams.privateNoise(0, round).addGaussian(sum, config.noiseMultiplier() * config.clipNorm());
        return sum.divi(config.sampling().expectedCount(clientCount));
    }

    /** Frees the last round's messages, a [K, p] matrix valid until the next step. */
    private void freeLastMessages() {
        ArrayMemory.release(lastMessages);
        lastMessages = null;
        releasedOnDevice = null;
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

    /** GOPA's adversary, the colluders and how they are analysed: rounds priced against other colluders do not compose. */
    @Override
    public java.util.Map<String, String> settingsFixedOnResume() {
        return java.util.Map.of(FederatedOptions.COLLUDING_FRACTION.name(), FederatedOptions.COLLUDING_FRACTION.format(0.0),
                FederatedOptions.COLLUDING_SETS.name(), "worst");
    }

    @Override
    public String stepUnit() {
        return "round";
    }

    @Override
    public INDArray parameters() {
        return theta.dup().reshape(theta.length());
    }

    @Override
    public MultiLayerNetwork model() {
        return withParameters(template, parameters());
    }

    /** N, the clients of the run: the real ones, then the planted ones (client ids {@code sizes..N-1}). */
    public int clientCount() {
        return clientCount;
    }

    /** The clients with data; the planted ones, if any, have the ids after them. */
    public int realClientCount() {
        return sizes.length;
    }

    /** The participants of the last round. */
    public int[] lastParticipants() {
        return lastParticipants.clone();
    }

    /**
     * What the participants' uplinks carried in the last round, one row per participant: raw updates (FedAvg,
     * central DP), noisy clipped updates (local DP), GOPA's revealed values. Valid until the next step.
     */
    public INDArray lastMessages() {
        if (lastMessages == null && releasedOnDevice != null) {
            lastMessages = releasedOnDevice.messages();
            releasedOnDevice = null;
        }
        return lastMessages;
    }

    public FedAvgConfig config() {
        return config;
    }

    /** The network whose parameter layout the global model uses. */
    public MultiLayerNetwork template() {
        return template;
    }

    /** GOPA's pairwise-secret graph (null for the other variants). */
    public Graph gopaGraph() {
        return gopaGraph;
    }

    /** The per-round accounting of a private variant (null for FedAvg). */
    public FedAvgPrivacy privacy() {
        return privacy;
    }

    /**
     * A run from a complete configuration and the parties' streams: the accounting follows the configuration (GOPA
     * against the server alone), and the ledger has the given budget and the standard accountant.
     *
     * @param budget the budget of a private variant (ignored for FedAvg)
     */
    public static FedAvgTrainer of(MultiLayerNetwork template, List<NodeData> clients, FedAvgConfig config, NoiseStreams clientStreams,
                                   NoiseStreams serverStreams, Graph gopaGraph, PrivacyBudget budget) {
        FedAvgPrivacy privacy = null;
        RunLedger ledger = null;
        if (config.variant().isPrivate()) {
            GopaAccountant gopa = config.variant() == FedAvgVariant.GOPA
                    ? new GopaAccountant(Objects.requireNonNull(gopaGraph, "GOPA needs its pairwise-secret graph"), 0,
                    CollusionAnalysis.worstCase()) : null;
            privacy = FedAvgPrivacy.of(config, clients.size(), gopa);
            ledger = new RunLedger(LedgerAccounting.standard(privacy.relation()), budget,
                    clientStreams.isSecure() && serverStreams.isSecure());
        }
        return new FedAvgTrainer(template, clients, config, clientStreams, serverStreams, gopaGraph, privacy, ledger,
                RunSettings.empty(), null);
    }

    /** A builder that sets up a run: clients, client sampling, calibration, GOPA's graph, noise streams, ledger. */
    public static FedAvgRunBuilder builder() {
        return new FedAvgRunBuilder();
    }

    /** Records who the guarantee holds against, for the statement, and GOPA's accountant (null for the others). */
    void describeAdversary(String who, GopaAccountant accountant) {
        this.adversary = who;
        this.gopaAccountant = accountant;
    }

    /** Who the guarantee holds against, in words ("-" for plain FedAvg). */
    public String adversary() {
        return adversary;
    }

    /** GOPA's accountant (its graph, colluders and kappa), null for the other variants. */
    public GopaAccountant gopaAccountant() {
        return gopaAccountant;
    }

    /**
     * The noise on the server's average of the expected m participants' clipped updates (norm at most S): z S sqrt(m) / m
     * when every client adds its own (local noise, GOPA's private part), z S / m when the server adds it.
     */
    @Override
    public Optional<UpdateNoise> updateNoise() {
        if (privacy == null) {
            return Optional.empty();
        }
        double m = config.sampling().expectedCount(clientCount);
        double sum = config.noiseMultiplier() * config.clipNorm() * (config.variant() == FedAvgVariant.DP_CENTRAL ? 1 : Math.sqrt(m));
        return Optional.of(new UpdateNoise(sum / m, config.clipNorm(), theta.length(), m, "clipped client updates"));
    }

    @Override
    public java.util.Map<String, Object> resolved() {
        java.util.Map<String, Object> r = new java.util.LinkedHashMap<>();
        r.put("clients", sizes.length);
        if (planted != null) {
            r.put("plantedClients", planted.count());
        }
        r.put("rounds", config.rounds());
        r.put("localSteps", config.localSteps());
        r.put("localBatch", config.localBatchSize());
        r.put("serverRate", config.serverRate());
        r.put("clientSampling", config.sampling().describe());
        r.put("weighting", config.weighting().name().toLowerCase(java.util.Locale.ROOT));
        if (privacy != null) {
            r.put("clipNorm", config.clipNorm());
            r.put("noiseMultiplier", config.noiseMultiplier());
            if (config.variant() == FedAvgVariant.GOPA) {
                r.put("pairwiseMultiplier", config.pairwiseMultiplier());
                r.put("gopaGraph", gopaGraph == null ? "-" : "random k-out graph, " + gopaGraph.edgeCount() + " edges");
                r.put("kappaBasis", privacy.kappa().basis().name().toLowerCase(java.util.Locale.ROOT));
                if (verificationLog != null) {
                    r.put("verification", verificationLog.summary(verification.coordinatesPerRound(), theta.length()));
                }
            }
            r.put("adversary", adversary);
        }
        return r;
    }

    @Override
    public String privacyStatement() {
        if (privacy == null) {
            return "";
        }
        return org.dpdl4j.privacy.ledger.LedgerStatement.resumedPreamble(ledger().orElseThrow())
                + privacy.statement(ledger().orElseThrow(), completedSteps(), config, adversary)
                + org.dpdl4j.privacy.ledger.LedgerStatement.text(ledger().orElseThrow());
    }

    @Override
    public RunState state() {
        RunState.Builder b = RunState.builder().array("theta", theta);
        if (verificationLog != null && verificationLog.rounds() > 0) {
            b.array(VERIFICATION_STATE, Nd4j.createFromArray(verificationLog.toArray()));   // verification.csv goes on after a resume
        }
        return b.build();
    }

    @Override
    public void close() {
        releasedOnDevice = null;   // its messages lived on the device that closes now
        local.close();
        if (blocks != null) {
            blocks.close();
        }
        if (blockEngine != null) {
            blockEngine.close();
        }
    }

    @Override
    protected void restoreState(RunState state, long savedRound) {
        if (savedRound > config.rounds()) {
            throw new IllegalArgumentException("the saved run is at round " + savedRound + " but this run has " + config.rounds() + " rounds");
        }
        theta.assign(state.array("theta", theta.shape()));
        if (verificationLog != null && state.arrays().containsKey(VERIFICATION_STATE)) {
            verificationLog = VerificationLog.fromArray(sizes.length, state.array(VERIFICATION_STATE).toDoubleMatrix());
        }
    }
}
