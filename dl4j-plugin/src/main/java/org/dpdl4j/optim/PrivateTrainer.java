package org.dpdl4j.optim;

import org.dpdl4j.privacy.ledger.PrivacyLedger;
import java.util.Optional;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.optimize.api.TrainingListener;
import org.dpdl4j.optim.layers.ExampleLayerRegistry;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.EpsilonBound;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.MechanismDescription;
import org.dpdl4j.privacy.accounting.PoissonSampledEvent;
import org.dpdl4j.privacy.accounting.PrivacyStatement;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SampledWithoutReplacementEvent;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.ledger.Charge;
import org.dpdl4j.privacy.ledger.DeltaAdvice;
import org.dpdl4j.privacy.ledger.LedgerEntry;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.PrivacyBudgetExceededException;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.LookAheadNoiseSource;
import org.dpdl4j.privacy.noise.NoiseSource;
import org.dpdl4j.privacy.noise.SecureNoiseSource;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.EpochRun;
import org.dpdl4j.runtime.NetworkState;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.UpdateNoise;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.api.iterator.DataSetIterator;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Central DP-SGD for a DL4J network: the one entry point that makes training private. It draws each step's batch
 * with its {@link BatchSampler}, takes a {@link DpOptimizer} step (per-example clipping, noise, the network's own
 * updater), and records every step in its {@link RunLedger}, whose analysis follows the sampler, so sampling and
 * accounting cannot disagree. A step that would take the ledger past the budget is not taken
 * ({@link org.dpdl4j.privacy.ledger.PrivacyBudgetExceededException}).
 *
 * <pre>{@code
 * DpSgdConfig config = DpSgdConfig.builder().clipNorm(1.0).targetEpsilon(2.0).delta(1e-5).batchSize(256).epochs(30).build();
 * try (PrivateTrainer trainer = PrivateTrainer.builder(net, config).data(trainIterator).build()) {
 *     trainer.fit();   // the 30 planned epochs
 *     System.out.println(trainer.privacyStatement());
 * }
 * }</pre>
 *
 * <p>The data is checked against the network when the trainer is built (shapes, widths, labels against the outputs,
 * delta against the number of examples), and refused with the fix. Data from a {@link DataSetIterator} is read once
 * into memory (one indexable store; its size is logged and {@link #dataDescription()} states it), so that every step
 * can draw an exact Poisson (or fixed-size) sample of the whole dataset, which is what the accountant assumes; an
 * iterator's own batches would be a different, unanalysed scheme. When the data does not fit in memory,
 * {@link Builder#streaming(DataSetIterator, int)} reads a resettable iterator in passes instead, each holding only the
 * rows its next steps drew: the same exact samples, paid for with passes over the iterator.
 *
 * <p>The network's DL4J {@link TrainingListener}s are called as {@code fit} calls them: epoch start and end, forward
 * pass, backward pass, gradient (the privatised one) and iteration done, with the network's input, labels and score
 * set to the step's batch, so DL4J's {@code ScoreIterationListener}, {@code EvaluativeListener},
 * {@code CheckpointListener} and the training UI's {@code StatsListener} work as with {@code fit}. While the trainer is
 * open, DL4J's own training of the network ({@code net.fit}, {@code EarlyStoppingTrainer}) is refused: it would not be
 * private ({@link PrivateEarlyStoppingTrainer} stops early privately).
 *
 * <p>By default noise comes from {@link SecureNoiseSource} (drawn one step ahead on a background thread,
 * {@link LookAheadNoiseSource}) and batches are sampled with {@link SecureRandom}.
 *
 * <p>On a GPU engine that keeps the training in its memory ({@link ResidentTraining}), the parameters and the updater
 * state stay there during {@link #fitEpoch()}, {@link #run(long)} and {@link #runToEnd()}; the network's own arrays are
 * brought up to date when read through {@link #network()}, {@link #model()}, {@link #parameters()} or {@link #state()},
 * for listeners that read parameters, and when those calls, a {@link #step()} taken on its own, or {@link #close()}
 * return ({@link DpOptimizer#deviceResidence()}).
 */
public final class PrivateTrainer extends AbstractTrainingRun implements EpochRun, DeviceRun {
    /** The protocol name of central DP-SGD. */
    public static final String PROTOCOL = "dp-sgd";
    private static final Logger LOG = LoggerFactory.getLogger(PrivateTrainer.class);

    private final DpSgdConfig config;
    private final ExampleSource examples;
    private final BatchSampler sampler;
    private final RandomGenerator random;
    private final NoiseSource noise;
    private final DpOptimizer optimizer;
    private final DpEvent stepEvent;
    private final String mechanism;
    private final long plannedSteps;
    private final CheckpointListenerWarning checkpointWarning = new CheckpointListenerWarning();
    /** Examples sampled with the data but not in it (audit canaries), or null; they follow the data's indices. */
    private final PlantedExamples planted;
    private ClippedBatch lastBatch;

    private PrivateTrainer(Model net, DpSgdPlan plan, ExampleSource examples, NoiseSource noise, RandomGenerator random,
                           RunSettings settings, ComputeDevice device, ExampleGradients engine, ExampleLayerRegistry layers,
                           PlantedExamples planted) {
        super(PROTOCOL, settings, new RunLedger(plan.accounting(), new PrivacyBudget(plan.config().epsilonBudget(),
                plan.config().delta()), noise.isSecure() && random instanceof SecureRandom));
        this.config = plan.config();
        this.examples = examples;
        this.planted = planted;
        this.sampler = plan.sampler();
        this.random = Objects.requireNonNull(random, "sampling randomness");
        this.noise = Objects.requireNonNull(noise, "noise source");
        this.plannedSteps = plan.plannedSteps();
        this.stepEvent = plan.stepEvent();
        this.mechanism = plan.mechanism();
        double z = plan.noiseMultiplier();
        if (Double.isNaN(config.noiseMultiplier())) {
            LOG.debug("Calibrated noise multiplier z = {} for epsilon = {} at delta = {} over {} steps", z,
                    config.targetEpsilon(), config.delta(), plannedSteps);
        }
        if (engine != null && !(net instanceof MultiLayerNetwork)) {
            throw new IllegalArgumentException("an engine of the caller's (engine(...)) clips a MultiLayerNetwork; build the"
                    + " trainer of a ComputationGraph with device(...) instead");
        }
        this.optimizer = net instanceof ComputationGraph graph
                ? new DpOptimizer(graph, config.clipNorm(), z, sampler.expectedBatchSize(), noise, layers)
                : engine != null
                ? new DpOptimizer((MultiLayerNetwork) net, config.clipNorm(), z, sampler.expectedBatchSize(), noise, engine)
                : new DpOptimizer((MultiLayerNetwork) net, config.clipNorm(), z, sampler.expectedBatchSize(), noise, device,
                layers);
        if (net instanceof ComputationGraph) {
            optimizer.useDevice(device);
        }
        warnAboutEarlierTraining(net);
        optimizer.refuseNonPrivateTraining();
        if (!noise.isSecure()) {
            LOG.warn("DP-SGD is running with an insecure noise source ({}); its epsilon is not a real guarantee.",
                    noise.description());
        } else if (!(random instanceof SecureRandom)) {
            // Amplification by sampling assumes the batches are secret: whoever knows this generator's seed knows them.
            LOG.warn("DP-SGD samples its batches with {}, not a SecureRandom: whoever knows its seed knows every batch, so"
                    + " the ledger marks its steps as not secure; give sampling(new SecureRandom()) (the default) for a real"
                    + " guarantee.", random.getClass().getSimpleName());
        }
    }

    /** Steps the network took before this trainer are in no ledger of this run: say so, loudly. */
    private static void warnAboutEarlierTraining(Model net) {
        int before = net instanceof MultiLayerNetwork m ? m.getIterationCount()
                : ((ComputationGraph) net).getIterationCount();
        if (before > 0) {
            LOG.warn("The network has already taken {} training iterations before this PrivateTrainer: they are not in its"
                    + " ledger, and epsilon() covers this trainer's steps only. If they saw private data (net.fit, or another"
                    + " trainer's steps), the model's privacy is not what this trainer reports.", before);
        }
    }

    /** A trainer with secure noise and secure sampling. */
    public static PrivateTrainer create(MultiLayerNetwork net, DpSgdConfig config, INDArray features, INDArray labels) {
        return builder(net, config).data(features, labels).build();
    }

    /** A trainer with the given noise source and sampling randomness (e.g. seeded ones for reproducible experiments). */
    public static PrivateTrainer create(MultiLayerNetwork net, DpSgdConfig config, INDArray features, INDArray labels,
                                        NoiseSource noise, RandomGenerator samplingRandom) {
        return builder(net, config).data(features, labels).noise(noise).sampling(samplingRandom).build();
    }

    /** A trainer with secure noise and sampling over the whole dataset of an iterator (read once into memory). */
    public static PrivateTrainer create(MultiLayerNetwork net, DpSgdConfig config, DataSetIterator data) {
        return builder(net, config).data(data).build();
    }

    /** Options of a trainer beyond the network and the settings. */
    public static Builder builder(MultiLayerNetwork net, DpSgdConfig config) {
        return new Builder(net, config);
    }

    /**
     * Options of a trainer of a {@link ComputationGraph} with one input and one output (made of the layers and
     * per-example vertices {@link org.dpdl4j.optim.layers.LayeredGradients} supports). Such a trainer is used from
     * Java: {@link #network()} and {@link #model()} are for multi-layer networks, the caller keeps its graph.
     */
    public static Builder builder(ComputationGraph graph, DpSgdConfig config) {
        return new Builder(graph, config);
    }

    @Override
    protected void takeStep(long index) {
        spend(stepEvent, mechanism);
        StepBatch batch;
        int[] sampledPlanted = null;
        if (planted != null) {
            // The sampler draws from the training examples followed by the planted ones (see Builder.planted).
            int[][] split = splitPlanted(sampler.sample(random), (int) examples.size());
            batch = ((HeldExamples) examples).gather(split[0]);
            sampledPlanted = split[1];
        } else {
            batch = examples.next(sampler, random, plannedSteps - index);
        }
        checkpointWarning.check(optimizer);
        int[] addPlanted = sampledPlanted;
        lastBatch = addPlanted == null || addPlanted.length == 0
                ? optimizer.step(batch.features(), batch.labels(), batch.featureSquaredNorms())
                : optimizer.step(batch.features(), batch.labels(), batch.featureSquaredNorms(),
                        sum -> planted.addClippedGradients(addPlanted, sum));
        if (lastBatch == null) {
            measuredNoLoss();
        } else {
            measuredLoss(lastBatch.lossSums().getDouble(0) / batch.size());
        }
    }

    /**
     * Splits a sample of the data set seen by the sampler (the n training examples followed by the planted ones) into
     * the training rows and the planted indices (less n).
     */
    static int[][] splitPlanted(int[] rows, int n) {
        int data = 0;
        for (int row : rows) {
            data += row < n ? 1 : 0;
        }
        int[] train = new int[data];
        int[] extra = new int[rows.length - data];
        int a = 0;
        int b = 0;
        for (int row : rows) {
            if (row < n) {
                train[a++] = row;
            } else {
                extra[b++] = row - n;
            }
        }
        return new int[][]{train, extra};
    }

    /**
     * What the last step's batched pass measured (per-example norms, loss, {@code clippedCount()}), or null for an
     * empty Poisson batch. Its arrays are overwritten by the next step: {@code dup()} what you keep.
     */
    public ClippedBatch lastBatch() {
        return lastBatch;
    }

    /** Adds an observer of every step's released noisy gradient (see {@link DpOptimizer#addObserver}). */
    public void addObserver(StepObserver observer) {
        optimizer.addObserver(observer);
    }

    /**
     * Runs one epoch's worth of steps (1/q, rounded) between the network's listeners' {@code onEpochStart} and
     * {@code onEpochEnd}; stops early at the budget (the exception propagates after the completed steps).
     */
    @Override
    public void fitEpoch() {
        try (DpOptimizer.KeepOnDevice scope = optimizer.keepOnDevice()) {
            optimizer.startEpoch();
            long n = sampler.stepsPerEpoch();
            for (long i = 0; i < n; i++) {
                step();
            }
            optimizer.endEpoch();
        }
    }

    /** How an epoch of {@link #fitEpochUntil} ended: the steps it took, and whether the budget or the caller stopped it. */
    record EpochOutcome(long steps, boolean budgetReached, boolean stopped) {
    }

    /**
     * Runs one epoch's steps between the listeners' epoch calls, as {@link #fitEpoch()}, but ends it early, still with
     * {@code onEpochEnd}, when {@code stopAfterStep} says so after a step or the budget refuses the next step.
     */
    EpochOutcome fitEpochUntil(java.util.function.BooleanSupplier stopAfterStep) {
        try (DpOptimizer.KeepOnDevice scope = optimizer.keepOnDevice()) {
            optimizer.startEpoch();
            long taken = 0;
            boolean budget = false;
            boolean stopped = false;
            for (long n = sampler.stepsPerEpoch(); taken < n && !stopped; ) {
                try {
                    step();
                } catch (PrivacyBudgetExceededException e) {
                    budget = true;
                    break;
                }
                taken++;
                stopped = stopAfterStep.getAsBoolean();
            }
            optimizer.endEpoch();
            return new EpochOutcome(taken, budget, stopped);
        }
    }

    /** Whether the budget allows one more step (the ledger would refuse it otherwise). */
    public boolean budgetAllowsAnotherStep() {
        RunLedger l = ledger().orElseThrow();
        return l.budget().allows(l.after(Charge.ofAll(stepEvent, mechanism), 1).epsilon());
    }

    /**
     * Runs {@code epochs} epochs ({@link #fitEpoch()} each), as DL4J's {@code net.fit(iterator, epochs)} does, but
     * privately; stops at the budget (the exception propagates after the completed steps).
     */
    public void fit(int epochs) {
        if (epochs < 0) {
            throw new IllegalArgumentException("the number of epochs to fit must be >= 0, got " + epochs);
        }
        for (int e = 0; e < epochs; e++) {
            fitEpoch();
        }
    }

    /**
     * Runs the rest of the planned epochs (the config's {@code epochs}, whose noise was calibrated for them): whole
     * epochs, then the steps of a last partial epoch, between the listeners' epoch calls.
     */
    public void fit() {
        while (plannedSteps - completedSteps() >= sampler.stepsPerEpoch()) {
            fitEpoch();
        }
        if (!isFinished()) {
            try (DpOptimizer.KeepOnDevice scope = optimizer.keepOnDevice()) {
                optimizer.startEpoch();
                runToEnd();
                optimizer.endEpoch();
            }
        }
    }

    /** Takes {@code count} steps, the parameters kept on the device between them when the engine keeps them. */
    @Override
    public void run(long count) {
        try (DpOptimizer.KeepOnDevice scope = optimizer.keepOnDevice()) {
            for (long i = 0; i < count; i++) {
                step();
            }
        }
    }

    /** Takes the remaining planned steps, the parameters kept on the device between them when the engine keeps them. */
    @Override
    public void runToEnd() {
        try (DpOptimizer.KeepOnDevice scope = optimizer.keepOnDevice()) {
            while (!isFinished()) {
                step();
            }
        }
    }

    /**
     * Where the training lives ({@link DpOptimizer#deviceResidence()}): on the host, on the device between steps, or
     * clipped on the device with the updater on the host (and why).
     */
    public String deviceResidence() {
        return optimizer.deviceResidence();
    }

    @Override
    public String computedOn() {
        return deviceResidence();
    }

    @Override
    public long stepsPerEpoch() {
        return sampler.stepsPerEpoch();
    }

    /** The steps a run plans for {@code epochs} passes of {@code stepsPerEpoch} steps: their product, rounded up. */
    public static long plannedSteps(double epochs, long stepsPerEpoch) {
        return (long) Math.ceil(epochs * stepsPerEpoch - 1e-9);
    }

    /** The guarantee after {@code count} steps like this run's, with the given conversion (planning). */
    public EpsilonBound epsilonAfter(long count, Conversion conversion) {
        RunLedger l = ledger().orElseThrow();
        return l.accounting().planned(stepEvent, count, l.delta(), conversion);
    }

    /** The privacy statement of the steps taken so far (from the ledger). */
    public PrivacyStatement statement() {
        RunLedger l = ledger().orElseThrow();
        SamplingScheme scheme = sampler instanceof PoissonSampler ? SamplingScheme.POISSON : SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT;
        List<MechanismDescription> segments = segments(l.ledger());
        MechanismDescription d = new MechanismDescription("DP-SGD (subsampled Gaussian mechanism, per-example clipping to C = "
                + (segments.isEmpty() ? config.clipNorm() + ")" : "each segment's clip)"), ProtectedUnit.EXAMPLE, scheme,
                sampler.samplingRate(), optimizer.noiseMultiplier(), completedSteps());
        return new PrivacyStatement(d, l.accounting().relation(), l.spent(Conversion.STANDARD), l.spent(Conversion.IMPROVED),
                segments, l.everyBound(Conversion.STANDARD), l.everyBound(Conversion.IMPROVED));
    }

    /**
     * Every settings segment of a resumed run as its ledger recorded it (its steps' event gives q and z, its entry's
     * description the clip), so that the statement never describes the last segment's settings as every step's.
     */
    private static List<MechanismDescription> segments(PrivacyLedger ledger) {
        List<MechanismDescription> out = new ArrayList<>();
        for (LedgerEntry e : ledger.entries()) {
            DpEvent event = e.event();
            SamplingScheme scheme = event instanceof PoissonSampledEvent ? SamplingScheme.POISSON
                    : SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT;
            double q = event instanceof PoissonSampledEvent p ? p.samplingProbability()
                    : ((SampledWithoutReplacementEvent) event).samplingRatio();
            DpEvent inner = event instanceof PoissonSampledEvent p ? p.event() : ((SampledWithoutReplacementEvent) event).event();
            out.add(new MechanismDescription(e.mechanism(), ProtectedUnit.EXAMPLE, scheme, q,
                    ((GaussianEvent) inner).noiseMultiplier(), e.count()));
        }
        return ledger.lastSegment() > 0 ? out : List.of();
    }

    @Override
    public java.util.Map<String, Object> resolved() {
        java.util.Map<String, Object> r = new java.util.LinkedHashMap<>();
        r.put("examples", sampler.datasetSize());
        r.put("expectedBatchSize", sampler.expectedBatchSize());
        r.put("samplingRate", sampler.samplingRate());
        r.put("stepsPerEpoch", stepsPerEpoch());
        r.put("steps", plannedSteps);
        r.put("clipNorm", config.clipNorm());
        r.put("noiseMultiplier", optimizer.noiseMultiplier());
        r.put("noiseStd", optimizer.noiseMultiplier() * config.clipNorm());
        return r;
    }

    /** The noise z C / B on the average of an expected B clipped per-example gradients, of norm at most C. */
    @Override
    public Optional<UpdateNoise> updateNoise() {
        return Optional.of(new UpdateNoise(optimizer.noiseStd() / sampler.expectedBatchSize(), config.clipNorm(),
                optimizer.model().numParams(), sampler.expectedBatchSize(), "clipped per-example gradients"));
    }

    /** The mechanism and what the steps taken so far spent ({@link #statement()}), then the ledger. */
    @Override
    public String privacyStatement() {
        return statement().text() + org.dpdl4j.privacy.ledger.LedgerStatement.text(ledger().orElseThrow());
    }

    /** Steps taken so far. */
    public long steps() {
        return completedSteps();
    }

    @Override
    public Optional<PrivacyLedger> plannedLedger() {
        return plannedRepetition(stepEvent, mechanism);
    }

    @Override
    public long plannedSteps() {
        return plannedSteps;
    }

    @Override
    public String stepUnit() {
        return "step";
    }

    /** The noise multiplier z of every step (noise std z C on the clipped sum), calibrated or as configured. */
    public double noiseMultiplier() {
        return optimizer.noiseMultiplier();
    }

    /** How every step draws its batch, and so how the steps are accounted. */
    public BatchSampler sampler() {
        return sampler;
    }

    /** The settings the trainer was built with. */
    public DpSgdConfig config() {
        return config;
    }

    /**
     * The network being trained, for a trainer of a {@link MultiLayerNetwork} (that of a graph has {@link #graph()}).
     *
     * @throws IllegalStateException for a trainer of a {@link ComputationGraph}
     */
    public MultiLayerNetwork network() {
        if (optimizer.model() instanceof MultiLayerNetwork net) {
            return net;
        }
        throw new IllegalStateException("this trainer trains a ComputationGraph: use graph() (or trainedModel() for"
                + " either kind); network() and model() return MultiLayerNetworks");
    }

    /**
     * The graph being trained, for a trainer of a {@link ComputationGraph}.
     *
     * @throws IllegalStateException for a trainer of a {@link MultiLayerNetwork} (use {@link #network()})
     */
    public ComputationGraph graph() {
        if (optimizer.model() instanceof ComputationGraph graph) {
            return graph;
        }
        throw new IllegalStateException("this trainer trains a MultiLayerNetwork: use network() (or trainedModel() for"
                + " either kind)");
    }

    /** The network being trained, a {@link MultiLayerNetwork} or a {@link ComputationGraph}, its arrays up to date. */
    public Model trainedModel() {
        return optimizer.model();
    }

    /**
     * The training examples sampled from: how many, and the memory they take (held in memory), or the passes read and
     * the most rows held at once (streamed, {@link Builder#streaming}).
     */
    public String dataDescription() {
        return examples.description();
    }

    /** Where the steps take their examples from. */
    ExampleSource exampleSource() {
        return examples;
    }

    @Override
    public INDArray parameters() {
        INDArray params = optimizer.model().params();
        return params.dup().reshape(params.length());
    }

    /**
     * {@inheritDoc} For a trainer of a {@link ComputationGraph} use {@link #graph()} or {@link #trainedModel()}.
     */
    @Override
    public MultiLayerNetwork model() {
        return network();
    }

    @Override
    public RunState state() {
        return NetworkState.of(optimizer.model()).build();
    }

    /**
     * Restores the network and the updater and, for reproducible (seeded) noise and sampling, replays the streams
     * past the completed steps, so that a resumed run continues exactly as an uninterrupted one. A streaming trainer
     * forgets batches it drew ahead and starts a pass at the resumed step; since a pass draws its steps' rows in step
     * order from the same stream, the batches are those of the uninterrupted run wherever its passes began.
     */
    @Override
    protected void restoreState(RunState state, long completedSteps) {
        NetworkState.restore(optimizer.model(), state);
        examples.discardDrawnAhead();
        if (!noise.isSecure()) {
            replay(completedSteps);
        }
    }

    /** Draws and discards what the first {@code steps} steps drew from the sampling and noise streams. */
    private void replay(long steps) {
        double std = optimizer.noiseStd();
        try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
            INDArray params = optimizer.model().params();
            INDArray scratch = Nd4j.create(params.dataType(), params.shape());
            for (long s = 0; s < steps; s++) {
                sampler.sample(random);
                noise.addGaussian(scratch, std);
            }
        }
    }

    /** Computes the per-example clipping on {@code device} from the next step on ({@link DpOptimizer#useDevice}). */
    @Override
    public void useDevice(ComputeDevice device) {
        optimizer.useDevice(device);
    }

    @Override
    public void close() {
        optimizer.close();
        if (noise instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.debug("closing the noise source failed", e);
            }
        }
    }

    /** Builds a {@link PrivateTrainer}; defaults: secure noise, secure sampling, the standard accountant. */
    public static final class Builder {
        private final Model net;
        private final DpSgdConfig config;
        private INDArray features;
        private INDArray labels;
        private DataSetIterator stream;
        private int stepsPerPass;
        private NoiseSource noise;
        private RandomGenerator random;
        private AccountantFactory accountants = AccountantFactory.standard();
        private RunSettings settings;
        private ComputeDevice device = ComputeDevice.AUTO;
        private ExampleGradients engine;
        private ExampleLayerRegistry layers = ExampleLayerRegistry.standard();
        private PlantedExamples planted;

        private Builder(Model net, DpSgdConfig config) {
            this.net = Objects.requireNonNull(net, "network");
            this.config = Objects.requireNonNull(config, "config");
        }

        /** The training examples as arrays (one row per example). */
        public Builder data(INDArray features, INDArray labels) {
            this.features = features;
            this.labels = labels;
            this.stream = null;
            return this;
        }

        /**
         * The training examples of an iterator, read once into memory (it is reset first and after), so that every
         * step samples from all of them; the trainer logs what they take ({@link PrivateTrainer#dataDescription()}).
         * Feature rows, or NCHW images for a convolutional network; masks are refused.
         */
        public Builder data(DataSetIterator iterator) {
            IteratorContents contents = IteratorContents.read(iterator);
            LOG.info("{}", contents.describeCost());
            this.features = contents.features();
            this.labels = contents.labels();
            this.stream = null;
            return this;
        }

        /**
         * The training examples of a resettable iterator, streamed in passes rather than held in memory: each pass
         * draws the batches of the next {@code stepsPerPass} steps, reads the iterator once and keeps only their
         * rows, so about {@code stepsPerPass} times the expected batch size examples are held at a time, instead of
         * all N. The cost is time: the iterator is read once when the trainer is built (to count the examples, N
         * being needed for the sampling rate q = batch size / N and the calibration, and to check every batch against
         * the network), then once per pass, ceil(steps / stepsPerPass) passes for a run of that many steps.
         *
         * <p>The sampling and the accounting are those of {@link #data(DataSetIterator)}: each step's rows are drawn
         * by the same sampler from the same randomness in step order (Poisson: every example independently with
         * probability q), only gathered ahead of the step, so the batches have exactly the distribution the accountant
         * analyses, and a seeded run takes the same batches as in memory. The iterator must give the same examples
         * (in any order) on every reset, which each pass checks by their number. Masks are refused, and so is a batch
         * whose examples differ in shape from the first batch's.
         *
         * <pre>{@code
         * try (PrivateTrainer trainer = PrivateTrainer.builder(net, config).streaming(trainIterator, 50).build()) {
         *     trainer.fit();   // reads trainIterator once per 50 steps
         * }
         * }</pre>
         *
         * @param iterator     a resettable iterator of the training examples (reset before each pass)
         * @param stepsPerPass m, the steps one pass gathers batches for: more is fewer passes and more memory
         */
        public Builder streaming(DataSetIterator iterator, int stepsPerPass) {
            this.stream = Objects.requireNonNull(iterator, "iterator");
            this.stepsPerPass = stepsPerPass;
            this.features = null;
            this.labels = null;
            return this;
        }

        /** The noise source (e.g. a seeded one for reproducible experiments; NOT secure). */
        public Builder noise(NoiseSource source) {
            this.noise = Objects.requireNonNull(source, "noise source");
            return this;
        }

        /**
         * The randomness of batch sampling (default: a {@link SecureRandom}). Amplification by sampling assumes the
         * batches are secret, so with any other generator the ledger marks the steps as not secure, as seeded noise.
         */
        public Builder sampling(RandomGenerator generator) {
            this.random = Objects.requireNonNull(generator, "sampling randomness");
            return this;
        }

        /** The accountant of the ledger and of the calibration. */
        public Builder accountant(AccountantFactory factory) {
            this.accountants = Objects.requireNonNull(factory, "accountant factory");
            return this;
        }

        /**
         * Where the per-example clipping runs: {@link ComputeDevice#AUTO} (default: dpdl4j's CUDA engine when the
         * dpdl4j-cuda module is installed and a usable GPU is there, else the CPU), CPU or CUDA.
         */
        public Builder device(ComputeDevice computeDevice) {
            this.device = Objects.requireNonNull(computeDevice, "device");
            return this;
        }

        /**
         * A per-example engine the caller opened (for instance dpdl4j-cuda's on a chosen backend), in place of the one
         * {@link #device} picks; the trainer takes it over and closes it. For a {@link MultiLayerNetwork}.
         */
        public Builder engine(ExampleGradients perExampleEngine) {
            this.engine = Objects.requireNonNull(perExampleEngine, "engine");
            return this;
        }

        /**
         * The layer types per-example clipping understands (default {@link ExampleLayerRegistry#standard()}): to train a
         * network with a layer type of one's own, register its per-example view with {@link ExampleLayerRegistry#with}
         * and pass the registry here. Layers handled differently from the standard registry run on the CPU.
         */
        public Builder layers(ExampleLayerRegistry registry) {
            this.layers = Objects.requireNonNull(registry, "layer registry");
            return this;
        }

        /**
         * Examples sampled with the data but added straight to the clipped sum, as audit canaries are: the sampler,
         * the expected batch size and so the accountant see the training examples plus {@code plantedExamples.count()}
         * (canaries count as examples). The data must be held in memory (not {@code streaming}); the training runs on
         * the host (a device engine that keeps it is refused at the first step). An audit run is meant to run start to
         * end: its checkpoint does not record the planted examples.
         */
        public Builder planted(PlantedExamples plantedExamples) {
            this.planted = Objects.requireNonNull(plantedExamples, "planted examples");
            return this;
        }

        /** The settings recorded with the run (in its checkpoint); by default those of the config. */
        public Builder settings(RunSettings runSettings) {
            this.settings = Objects.requireNonNull(runSettings, "settings");
            return this;
        }

        /**
         * Checks the data against the network and the settings, plans the noise, and builds the trainer; from then on
         * the trainer refuses DL4J's own training of the network ({@code net.fit}) until it is closed.
         *
         * @throws IllegalArgumentException naming what does not fit (data shapes, labels, settings) and the fix
         */
        public PrivateTrainer build() {
            if (features == null && stream == null) {
                throw new IllegalStateException("give the training data with data(features, labels), data(iterator) or"
                        + " streaming(iterator, stepsPerPass)");
            }
            if (net.params() == null) {
                throw new IllegalStateException("the network is not initialised: call net.init() before building its trainer");
            }
            if (planted != null && stream != null) {
                throw new IllegalStateException("planted examples (audit canaries) are sampled with data held in memory;"
                        + " give the data with data(features, labels) or data(iterator) instead of streaming(...)");
            }
            ExampleSource examples = stream != null ? StreamedExamples.open(net, stream, stepsPerPass)
                    : new HeldExamples(TrainingExamples.of(net, features, labels));
            long units = examples.size() + (planted == null ? 0 : planted.count());
            DeltaAdvice.forUnits(config.delta(), units).ifPresent(LOG::warn);
            DpSgdPlan plan = DpSgdPlan.of(config, units, accountants);
            if (examples instanceof StreamedExamples streamed) {
                LOG.info("{}", streamed.describeCost(plan.sampler().expectedBatchSize(), plan.plannedSteps()));
            }
            NoiseSource source = noise != null ? noise : new LookAheadNoiseSource();
            try {
                return new PrivateTrainer(net, plan, examples, source, random != null ? random : new SecureRandom(),
                        settings != null ? settings : config.settings(), device, engine, layers, planted);
            } catch (RuntimeException e) {
                if (noise == null && source instanceof AutoCloseable c) {
                    try {
                        c.close();
                    } catch (Exception suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
                throw e;
            }
        }
    }
}
