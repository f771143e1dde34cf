package org.dpdl4j.protocol.federated;

import org.dpdl4j.privacy.ledger.Charge;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import java.util.Optional;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryCheck;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.RoundWorkspace;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.DeviceEngines;
import org.dpdl4j.optim.DeviceNodeModels;
import org.dpdl4j.optim.DeviceRun;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.privacy.noise.PhiloxNoiseStreams;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.engine.BlockEngine;
import org.dpdl4j.runtime.engine.BlockRunner;
import org.dpdl4j.runtime.engine.ConstructedBlocks;
import org.dpdl4j.runtime.engine.DeviceDistributableRun;
import org.dpdl4j.runtime.engine.PartyBlocks;
import org.dpdl4j.runtime.engine.Rows;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static org.nd4j.linalg.indexing.NDArrayIndex.all;
import static org.nd4j.linalg.indexing.NDArrayIndex.interval;
import static org.nd4j.linalg.indexing.NDArrayIndex.point;

/**
 * DP-mu^2-FL (spec 4.3): M machines and a parameter server running noisy mu^2-SGD, every machine processing
 * its examples once, in order. One round:
 * <ol>
 *   <li>every machine takes its next example z and updates its estimate with
 *       {@code q = alpha_t grad f(x_t; z) - alpha_{t-1} grad f(x_{t-1}; z)} (one batched gradient pass for the 2M
 *       gradients, see {@link Mu2Machines});</li>
 *   <li>{@link ServerTrust#UNTRUSTED untrusted server}: machine i sends {@code dhat^i + Y^i},
 *       {@code Y^i ~ N(0, sigma_t^2 I)} from its own stream (row i of {@code noise.addPrivateNoise}), and the server
 *       averages; {@link ServerTrust#TRUSTED trusted server}: machines send {@code dhat^i}, the server averages and adds
 *       {@code Y ~ N(0, sigma_t^2 I)} from stream 0 (pass streams only the server holds);</li>
 *   <li>the server steps {@code w <- Pi_K(w - eta gbar)} and moves the query point to the anytime average
 *       ({@link Mu2Iterates}), which it broadcasts.</li>
 * </ol>
 * Total work is two gradients per example: linear in the data. With M = 1 and the same seeded streams the two
 * trust models draw the same noise and produce the same iterates.
 *
 * <p>{@link #distribute} moves the machines' part (their samples, increments and, with an untrusted server, their
 * noise) onto blocks of machines; the server's part and the machines' estimates as of the last round stay here, so
 * that checkpoints and a block reopened after a lost worker continue from them. With seeded streams the iterates are
 * those of one process bit for bit.
 *
 * <p>The machines' part can run on a device instead ({@link #useDevice}; automatic when one is usable): their query
 * points and estimates stay there, the server gets only the mean of their messages (the machines' noise, drawn here
 * by the same streams and copied in, or drawn there from Philox streams), and the estimates and messages come back only
 * when read.
 */
public final class Mu2Trainer extends AbstractTrainingRun implements DeviceDistributableRun, DeviceRun {
    private final MultiLayerNetwork template;
    private final Mu2Config config;
    private final NoiseStreams noise;
    private final Mu2Machines machines;
    private final Mu2Iterates iterates;
    private final INDArray features;
    private final INDArray labels;
    private final int count;
    private final Mu2Privacy privacy;
    private final String mechanism;
    private Mu2Setup setup;
    private String start;
    private Mu2Machines.MomentumStep lastStep;
    /**
     * The largest clip the machines' estimates hold increments of: this run's, or a larger one of the run it resumed
     * (saved with every checkpoint, so that a later resume is checked against every clip the estimates carry); NaN when
     * unknown.
     */
    private double carriedClip;
    private INDArray lastMessages;
    private final INDArray messages;
    private final RoundWorkspace workspace = new RoundWorkspace();
    private BlockEngine blockEngine;
    private BlockRunner<Mu2BlockInput, Mu2BlockOutput> blocks;
    private PartyBlocks split;
    /** Whether the machines' device was chosen (by {@link #useDevice}, or automatically before the first round). */
    private boolean deviceChosen;
    /** The device asked for (auto until {@link #useDevice}), which blocks of machines also take. */
    private ComputeDevice requested = ComputeDevice.AUTO;
    /** Whether {@code messages} holds only the machines' noise of the last round on the device (dhat not added yet). */
    private boolean messagesHoldNoiseOnly;
    /** Whether the machines' noise of the last round is on the device only (drawn there), not yet in {@code messages}. */
    private boolean noiseOnDevice;

    /**
     * @param template network whose parameters are the data-independent start {@code x_1} (projected onto K)
     * @param data     the machines' local datasets; machine i needs at least {@code T b} examples
     * @param config   the run's settings
     * @param noise    streams of the parties that add noise: the machines' (untrusted) or the server's (trusted)
     * @param privacy  the accounting of a private run (null without noise)
     * @param ledger   the run's ledger (null without noise)
     * @param settings the settings the run was built from
     */
    public Mu2Trainer(MultiLayerNetwork template, List<NodeData> data, Mu2Config config, NoiseStreams noise, Mu2Privacy privacy,
                      RunLedger ledger, RunSettings settings) {
        super(config.algorithmName(), settings, ledger);
        if (config.noise().isPrivate() != (privacy != null) || (privacy != null) != (ledger != null)) {
            throw new IllegalArgumentException(config.algorithmName() + (config.noise().isPrivate()
                    ? " adds noise: it needs its accounting and a ledger" : " adds no noise: it has no accounting or ledger"));
        }
        if (privacy != null && !(config.qClip() <= privacy.sensitivityBound())) {
            throw new IllegalArgumentException("the accounting assumes every increment has norm at most S = "
                    + privacy.sensitivityBound() + ", but the run clips them at " + config.qClip() + ": give the config the"
                    + " accounting's S as its clip (Mu2Config.of with the same constants)");
        }
        this.privacy = privacy;
        this.mechanism = privacy == null ? null : privacy.describe();
        this.template = Objects.requireNonNull(template, "template network");
        this.config = Objects.requireNonNull(config, "config");
        this.noise = Objects.requireNonNull(noise, "noise streams");
        List<NodeData> local = List.copyOf(data);
        if (local.isEmpty()) {
            throw new IllegalArgumentException("DP-mu^2-FL needs at least one machine");
        }
        this.count = local.size();
        PerExampleGradients gradients = PerExampleGradients.of(template);
        long needed = config.rounds() * config.batchSize();
        List<INDArray> xs = new ArrayList<>();
        List<INDArray> ys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            NodeData d = local.get(i);
            if (d.features().size(1) != gradients.spec().nIn()) {
                throw new IllegalArgumentException("machine " + i + " has " + d.features().size(1) + " features but the model takes "
                        + gradients.spec().nIn());
            }
            if (d.size() < needed) {
                throw new IllegalArgumentException("machine " + i + " has " + d.size() + " examples, but T = " + config.rounds()
                        + " rounds of " + config.batchSize() + " example(s) use " + needed + ": each example is used once, so use"
                        + " at most " + d.size() / config.batchSize() + " rounds, or fewer machines (more data each)");
            }
            xs.add(d.features().get(interval(0, needed), all()));
            ys.add(d.labels().get(interval(0, needed), all()));
        }
        MemoryCheck.require(new Mu2Memory(config.algorithmName(), ModelFootprint.of(template.getLayerWiseConfigurations()),
                DataShape.of(local), count, config.batchSize()).estimate());
        this.features = roundMajor(xs, config);
        this.labels = roundMajor(ys, config);
        this.machines = new Mu2Machines(gradients, count, config.qClip());
        INDArray start = template.params().dup().castTo(gradients.spec().dataType());
        this.iterates = new Mu2Iterates(start, config.domain());
        this.machines.moveTo(iterates.x());
        this.messages = Nd4j.zeros(gradients.spec().dataType(), count, gradients.spec().numParams());
    }

    @Override
    protected void takeStep(long index) {
        if (index >= config.rounds()) {
            throw new IllegalStateException("all " + config.rounds() + " rounds are done: every example has been used once");
        }
        long t = iterates.t();
        if (privacy != null) {
            spend(privacy.eventOfRound(t), mechanism);
        }
        if (blocks == null && !deviceChosen) {
            useDevice(ComputeDevice.AUTO);   // before the workspace: what moves to the device is not a round's temporary
        }
        // Every temporary of the round lives in the workspace; state (estimates, iterates, messages) is updated in place.
        try (var ws = workspace.open()) {
            INDArray f = features.slice(t - 1);
            INDArray y = labels.slice(t - 1);
            double sigma = config.noise().at(t);
            boolean machinesAddNoise = sigma > 0 && config.trust() == ServerTrust.UNTRUSTED;
            INDArray aggregate;
            if (machines.onDevice()) {
                aggregate = aggregateOnDevice(t, f, y, sigma, machinesAddNoise);
            } else {
                if (blocks != null) {
                    lastStep = roundOnBlocks(t);
                } else {
                    lastStep = machines.accumulate(t, f, y);
                    if (machinesAddNoise) {
                        messages.assign(machines.dhat());
                        noise.addPrivateNoise(messages, t, sigma);   // row i from machine i's stream
                    }
                }
                if (machinesAddNoise) {
                    lastMessages = messages;
                    aggregate = messages.mean(0);
                } else {
                    lastMessages = machines.dhat();
                    aggregate = machines.dhat().mean(0);
                }
            }
            measuredLoss(lastStep.meanLoss());
            if (!machinesAddNoise && sigma > 0) {
                noise.addPrivateNoise(aggregate.reshape(1, aggregate.length()), t, sigma);   // the server's stream
            }
            iterates.advance(aggregate, config.stepSize());
            machines.moveTo(iterates.x());
        }
    }

    /**
     * The machines' round on the device and the mean of their messages: with an untrusted server their noise (row i
     * from machine i's stream) is drawn here as on the CPU and copied in, or drawn there from Philox streams, and added
     * there; the messages come back only when read ({@link #lastMessages}).
     */
    private INDArray aggregateOnDevice(long t, INDArray f, INDArray y, double sigma, boolean machinesAddNoise) {
        lastStep = machines.holdsSamples() ? machines.accumulateHeld(t) : machines.accumulate(t, f, y);
        INDArray aggregate = Nd4j.create(messages.dataType(), 1, messages.size(1));
        noiseOnDevice = false;
        if (machinesAddNoise && noise instanceof PhiloxNoiseStreams philox) {
            // drawn there, and read from there only if the messages are read
            machines.meanMessageOnDevice(philox.masterSeed(), t, sigma, aggregate);
            noiseOnDevice = true;
        } else {
            if (machinesAddNoise) {
                noise.writePrivateNoise(messages, t, sigma);
            }
            machines.meanMessageOnDevice(machinesAddNoise ? messages : null, aggregate);
        }
        messagesHoldNoiseOnly = machinesAddNoise;
        lastMessages = machinesAddNoise ? messages : null;
        return aggregate;
    }

    /**
     * Runs the machines' rounds from the next one on {@code choice}: {@code cuda} keeps both query points of every
     * machine and their estimates on the GPU and runs the machines' round there; {@code cpu} here; {@code auto} (what a
     * run does when nobody chooses) the GPU when an installed engine can run here and keep these models, else the CPU.
     * A run on blocks chose each block's device when it was distributed ({@link #distribute(BlockEngine, ComputeDevice)}).
     *
     * @throws org.dpdl4j.optim.DeviceUnavailableException when {@code cuda} is asked for and cannot be used, saying why
     */
    @Override
    public void useDevice(ComputeDevice choice) {
        String cpuOnly = blocks != null ? "a run on blocks of machines (--engine " + blockEngine.describe() + ") chose"
                + " each block's device when it was distributed (distribute(engine, device))" : null;
        moveMachinesTo(DeviceEngines.selectNodeModels(choice, machines.gradients().spec(), 2 * count, cpuOnly));
        requested = choice;
    }

    @Override
    public ComputeDevice requestedDevice() {
        return requested;
    }

    /**
     * Runs the machines' rounds from the next one on node models a caller opened (2M rows: x_t and x_{t-1} of every
     * machine; e.g. on a device engine's reference backend), which this run then closes; null for the CPU.
     */
    public void useNodeModels(DeviceNodeModels given) {
        if (given != null && blocks != null) {
            throw new IllegalStateException("a run on blocks of machines chose each block's device when it was distributed"
                    + " (distribute(engine, blockDevice))");
        }
        moveMachinesTo(given);
    }

    private void moveMachinesTo(DeviceNodeModels chosen) {
        INDArray shown = lastMessages();   // what the last round sent, before its parts move
        machines.useDevice(chosen);
        if (chosen != null) {
            // where they fit: a round then sends only which rows make it (any host copy on the way is no round's temporary)
            try (var outside = Nd4j.getWorkspaceManager().scopeOutOfWorkspaces()) {
                machines.holdSamples(features, labels);
            }
        }
        lastMessages = shown;
        messagesHoldNoiseOnly = false;
        deviceChosen = true;
    }

    /** Where the machines' rounds run: the device's description, or null on the CPU. */
    public String deviceDescription() {
        return machines.deviceDescription();
    }

    @Override
    public String computedOn() {
        if (blockEngine != null) {
            return "blocks of machines on " + blockEngine.describe() + " (each block on the device its executor chose)";
        }
        String device = machines.deviceDescription();
        return device == null ? "host engine" : device + " (both query points of every machine)";
    }

    /**
     * Round t of the machines on their blocks: each block is sent the query points and its machines' estimates, and
     * returns the new estimates (kept here), what the machines send when they add their own noise, and their losses.
     */
    private Mu2Machines.MomentumStep roundOnBlocks(long t) {
        Rows x = Rows.of(iterates.x());
        Rows previous = Rows.of(iterates.previous());
        List<Mu2BlockInput> inputs = new ArrayList<>();
        for (int b = 0; b < split.count(); b++) {
            inputs.add(new Mu2BlockInput(x, previous, Rows.ofRange(machines.dhat(), split.first(b), split.end(b) - split.first(b))));
        }
        List<Mu2BlockOutput> outputs = blocks.step(t, inputs);
        List<INDArray> lossSums = new ArrayList<>();
        double maxNorm = 0;
        long clipped = 0;
        for (int b = 0; b < outputs.size(); b++) {
            Mu2BlockOutput o = outputs.get(b);
            o.dhat().copyInto(machines.dhat(), split.first(b));
            if (o.messages() != null) {
                o.messages().copyInto(messages, split.first(b));
            }
            lossSums.add(o.lossSums().toArray());
            maxNorm = Math.max(maxNorm, o.maxNormQ());
            clipped += o.clipped();
        }
        INDArray sums = Nd4j.hstack(lossSums.toArray(INDArray[]::new));
        return new Mu2Machines.MomentumStep(Mu2Machines.meanLoss(sums, config.batchSize()), maxNorm, clipped);
    }

    /**
     * Runs the machines' part of every later round on blocks of machines placed by {@code placement} (which this run
     * then closes): each block gets its machines' samples and, with an untrusted server, their noise streams, and
     * computes on the models {@code blockDevice} opens where it runs (2 rows per machine; a GPU there keeps both query
     * points, the samples and the estimates, the noise is added on the block's host; null models: its CPU).
     */
    @Override
    public void distribute(BlockEngine placement, org.dpdl4j.optim.BlockDevice blockDevice) {
        java.util.Objects.requireNonNull(blockDevice, "block device");
        if (blockEngine != null) {
            throw new IllegalStateException("this run already runs on " + blockEngine.describe());
        }
        PartyBlocks parts = PartyBlocks.of(count, placement.blocksFor(count));   // refuses before anything moves
        if (machines.onDevice()) {
            moveMachinesTo(null);   // the rounds leave this process's device: the machines' state comes back first
        }
        deviceChosen = true;
        String json = template.getLayerWiseConfigurations().toJson();
        boolean machinesAddNoise = Mu2BlockPlan.machinesAddNoise(config);
        List<Mu2BlockPlan> plans = new ArrayList<>();
        for (int b = 0; b < parts.count(); b++) {
            List<Rows> xs = new ArrayList<>();
            List<Rows> ys = new ArrayList<>();
            for (int i = parts.first(b); i < parts.end(b); i++) {
                xs.add(Rows.of(machineRows(features, i)));
                ys.add(Rows.of(machineRows(labels, i)));
            }
            plans.add(new Mu2BlockPlan(b, parts.first(b), parts.end(b) - parts.first(b), json, config, xs, ys,
                    machinesAddNoise ? noise.restrictedTo(parts.members(b), new int[0]) : null, blockDevice));
        }
        this.blocks = placement.start(protocol(), plans, new ConstructedBlocks<>(Mu2Block::new));
        this.split = parts;
        this.blockEngine = placement;
    }

    @Override
    public BlockEngine engine() {
        return blockEngine;
    }

    /** Machine i's samples of the whole run as [T b, width], from the round-major stack. */
    private static INDArray machineRows(INDArray roundMajor, int i) {
        INDArray own = roundMajor.get(all(), point(i), all(), all());
        return own.dup('c').reshape(own.size(0) * own.size(1), own.size(2));
    }

    /**
     * The machines' first {@code T b} samples (each [T b, width], machine order) stacked round-major as
     * [T, M, b, width]: each round's samples of all machines are one contiguous block.
     */
    static INDArray roundMajor(List<INDArray> perMachine, Mu2Config config) {
        INDArray[] shaped = perMachine.stream()
                .map(a -> a.reshape(config.rounds(), config.batchSize(), a.size(1))).toArray(INDArray[]::new);
        return Nd4j.stack(1, shaped);
    }

    /**
     * A run from a configuration and the streams of the parties that add noise; a private configuration is accounted
     * by {@code privacy} in a ledger with the given budget, priced by the accountant {@code privacy} was planned with
     * (the one its noise was calibrated to).
     *
     * @param privacy the accounting of a private configuration (null without noise)
     */
    public static Mu2Trainer of(MultiLayerNetwork template, List<NodeData> data, Mu2Config config, NoiseStreams noise,
                                Mu2Privacy privacy, org.dpdl4j.privacy.ledger.PrivacyBudget budget) {
        RunLedger ledger = privacy == null ? null : new RunLedger(privacy.accounting(), budget, noise.isSecure());
        return new Mu2Trainer(template, data, config, noise, privacy, ledger, RunSettings.empty());
    }

    /** Rounds done so far. */
    public long round() {
        return completedSteps();
    }

    @Override
    public Optional<PrivacyLedger> plannedLedger() {
        // step k (0-based) is round t = k + 1
        return privacy == null ? Optional.empty()
                : plannedLedger(k -> List.of(Charge.ofAll(privacy.eventOfRound(k + 1), mechanism)));
    }

    @Override
    public long plannedSteps() {
        return config.rounds();
    }

    @Override
    public String stepUnit() {
        return "round";
    }

    @Override
    public INDArray parameters() {
        return iterates.x().dup().reshape(iterates.x().length());
    }

    @Override
    public MultiLayerNetwork model() {
        return withParameters(template, parameters());
    }

    /** What the machines measured in the last round (largest increment norm, clipped machines). */
    public Mu2Machines.MomentumStep lastStep() {
        return lastStep;
    }

    /**
     * What the machines sent in the last round as an [M, p] matrix: {@code dhat^i + Y^i} with an untrusted
     * server, the raw {@code dhat^i} with a trusted one (what an observer of the uplinks sees). A live buffer,
     * overwritten by the next step: copy it to keep it.
     */
    public INDArray lastMessages() {
        if (machines.onDevice() && lastStep != null) {
            if (lastMessages == null) {
                return machines.dhat();
            }
            if (messagesHoldNoiseOnly) {
                if (noiseOnDevice) {
                    machines.drawnNoise(lastMessages);
                    noiseOnDevice = false;
                }
                lastMessages.addi(machines.dhat());
                messagesHoldNoiseOnly = false;
            }
        }
        return lastMessages;
    }

    /** The server's iterates (query point, previous point, w). */
    public Mu2Iterates iterates() {
        return iterates;
    }

    /** The machines' state. */
    public Mu2Machines machines() {
        return machines;
    }

    public Mu2Config config() {
        return config;
    }

    /** The network whose parameter layout the iterates use. */
    public MultiLayerNetwork template() {
        return template;
    }

    /** The accounting of a private run (null without noise). */
    public Mu2Privacy privacy() {
        return privacy;
    }

    /** Records how the run was set up, for its summary and run files. */
    void describeSetup(Mu2Setup from, String startingPoint, String split) {
        this.setup = from;
        this.start = startingPoint;
        partitionReport(split);
    }

    @Override
    public java.util.Map<String, Object> resolved() {
        java.util.Map<String, Object> r = new java.util.LinkedHashMap<>();
        r.put("trust", config.trust().name().toLowerCase(java.util.Locale.ROOT));
        r.put("machines", count);
        r.put("rounds", config.rounds());
        r.put("batchSize", config.batchSize());
        if (setup != null) {
            Mu2Constants c = setup.constants();
            r.put("lipschitz", c.lipschitz());
            r.put("smoothness", c.smoothness());
            r.put("diameter", c.diameter());
            r.put("sensitivityBound", c.sensitivityBound());
            r.put("constantsSource", c.source());
            r.put("sigma", setup.sigma());
        }
        r.put("stepSize", config.stepSize());
        if (start != null) {
            r.put("start", start);
        }
        return r;
    }

    @Override
    public String privacyStatement() {
        if (privacy == null) {
            return "";
        }
        return org.dpdl4j.privacy.ledger.LedgerStatement.resumedPreamble(ledger().orElseThrow())
                + privacy.statement(ledger().orElseThrow(), completedSteps(), setup == null ? null : setup.constants())
                + org.dpdl4j.privacy.ledger.LedgerStatement.text(ledger().orElseThrow());
    }

    /**
     * The batch size and the split: machine i's round t takes its examples {@code (t-1) b .. t b - 1}, so with a smaller
     * b or another split a resumed run would use examples again that the saved rounds used, and an example used twice
     * has twice the sensitivity the accounting assumes (a larger b skips examples instead; refused alike, as the rounds
     * would no longer be the plan's).
     */
    @Override
    public java.util.Map<String, String> settingsFixedOnResume() {
        return java.util.Map.of(org.dpdl4j.runtime.options.RunOptions.BATCH_SIZE.name(), "1",
                org.dpdl4j.runtime.options.RunOptions.PARTITION.name(), Mu2Protocol.DEFAULT_PARTITION);
    }

    @Override
    public String mechanismChangeSince(org.dpdl4j.privacy.ledger.PrivacyLedger saved) {
        return org.dpdl4j.privacy.ledger.FormerZcdpRounds.changeSince(saved, protocol());
    }

    @Override
    public RunState state() {
        RunState.Builder state = RunState.builder().array("x", iterates.x()).array("x_previous", iterates.previous())
                .array("w", iterates.w()).array("dhat", machines.dhat()).number("batch", config.batchSize());
        if (!Double.isNaN(carriedClip)) {   // unknown only for a finished checkpoint of an earlier version, reopened
            state.number(CLIP, Math.max(carriedClip, config.qClip()));
        }
        return state.build();
    }

    /** The largest clip S the saved machines' estimates hold increments of. */
    private static final String CLIP = "clip";

    /**
     * Every message carries the machines' running estimates, and so the increments of every earlier round, clipped at the
     * S they ran with: a resumed run (a new ledger segment when the mechanism changed) whose rounds are priced at a
     * smaller S would under-report what the saved rounds' examples spend in them. A larger S prices them soundly.
     *
     * @return the largest clip the restored estimates hold increments of (0 when the run has no noise, NaN when a finished
     *         checkpoint of an earlier version does not record it)
     */
    private double requireCoveredClip(RunState state, long round) {
        if (privacy == null) {
            return 0;
        }
        if (!state.numbers().containsKey(CLIP)) {
            if (round == config.rounds()) {
                return Double.NaN;   // a finished run reopened to write its outputs again: no round is priced
            }
            throw new IllegalArgumentException("the saved run does not record the clip S its machines' estimates were clipped"
                    + " at (a checkpoint of an earlier version); every later message carries those estimates, so its further"
                    + " rounds cannot be priced without it: continue it with the version that saved it, or start a new run");
        }
        double saved = state.doubleValue(CLIP);
        if (!(privacy.sensitivityBound() >= saved)) {
            throw new IllegalArgumentException("the saved run's machines clipped their increments at S = " + saved + ", but this"
                    + " one prices its rounds at S = " + privacy.sensitivityBound() + ": every later message carries the saved"
                    + " estimates, so the saved rounds' examples would spend more in the new rounds than they are priced at."
                    + " Resume with settings that give S >= " + saved + " (the saved --diameter, --lipschitz, --smoothness and"
                    + " --feature-norm-bound), or start a new run");
        }
        return saved;
    }

    @Override
    protected void restoreState(RunState state, long round) {
        if (round > config.rounds()) {
            throw new IllegalArgumentException("the saved run is at round " + round + " but this run has " + config.rounds() + " rounds");
        }
        // (A checkpoint of an earlier version has no batch: its recorded settings were compared instead.)
        if (state.numbers().containsKey("batch") && state.longValue("batch") != config.batchSize()) {
            throw new IllegalArgumentException("the saved run took " + state.longValue("batch") + " example(s) per machine and"
                    + " round, this one " + config.batchSize() + ": every example is used once, in the order the batch size"
                    + " sets, so another batch size would use the saved rounds' examples again; resume with the saved batch size");
        }
        double restoredClip = requireCoveredClip(state, round);
        // The machines' estimates are checked before the iterates change: a state that does not fit changes nothing.
        INDArray dhat = state.array("dhat", machines.dhat().shape());
        iterates.restore(round + 1, state.array("x"), state.array("x_previous"), state.array("w"));
        machines.restore(dhat);
        carriedClip = restoredClip;
        machines.placeAt(iterates.x(), iterates.previous());
        // what the last round sent and measured belongs to the run before the restore
        lastStep = null;
        lastMessages = null;
        messagesHoldNoiseOnly = false;
        noiseOnDevice = false;
    }

    @Override
    public void close() {
        workspace.close();
        machines.close();
        if (blocks != null) {
            blocks.close();
        }
        if (blockEngine != null) {
            blockEngine.close();
        }
    }
}
