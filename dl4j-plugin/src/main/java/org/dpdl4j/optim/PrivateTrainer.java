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
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.Calibration;
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
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.LedgerEntry;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.LookAheadNoiseSource;
import org.dpdl4j.privacy.noise.NoiseSource;
import org.dpdl4j.privacy.noise.SecureNoiseSource;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.EpochRun;
import org.dpdl4j.runtime.NetworkState;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.dataset.api.iterator.DataSetIterator;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;
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
 * PrivateTrainer trainer = PrivateTrainer.create(net, DpSgdConfig.forTarget(1.0, 2.0, 1e-5, 256, 30), trainIterator);
 * for (int e = 0; e < 30; e++) trainer.fitEpoch();
 * System.out.println(trainer.statement());
 * }</pre>
 *
 * <p>Data from a {@link DataSetIterator} is read once into memory (one indexable store), so that every step can
 * draw an exact Poisson (or fixed-size) sample of the whole dataset, which is what the accountant assumes; an
 * iterator's own batches would be a different, unanalysed scheme. The network's DL4J {@link TrainingListener}s are
 * called as {@code fit} calls them: epoch start and end, forward pass, backward pass, gradient (the privatised
 * one) and iteration done.
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
    private final INDArray features;
    /** ||x_i||^2 of every training example, [N, 1]: data only, so computed once and gathered with each batch. */
    private final INDArray featureSquaredNorms;
    private final INDArray labels;
    private final BatchSampler sampler;
    private final RandomGenerator random;
    private final NoiseSource noise;
    private final DpOptimizer optimizer;
    private final DpEvent stepEvent;
    private final String mechanism;
    private final long plannedSteps;
    private ClippedBatch lastBatch;

    private PrivateTrainer(Model net, DpSgdConfig config, INDArray features, INDArray labels, NoiseSource noise,
                           RandomGenerator random, AccountantFactory accountants, RunSettings settings, ComputeDevice device,
                           ExampleGradients engine) {
        super(PROTOCOL, settings, ledger(config, features, noise, accountants));
        this.config = config;
        this.features = Objects.requireNonNull(features, "features");
        this.labels = Objects.requireNonNull(labels, "labels");
        if (features.size(0) != labels.size(0)) {
            throw new IllegalArgumentException("features have " + features.size(0) + " rows but labels have " + labels.size(0));
        }
        long n = features.size(0);
        this.featureSquaredNorms = RowNorms.squared(features, 1).reshape(n, 1).detach();
        this.sampler = samplerOf(config, n);
        this.random = Objects.requireNonNull(random, "sampling randomness");
        this.noise = Objects.requireNonNull(noise, "noise source");
        // Planned in whole fitEpoch() calls' worth of steps, so that `epochs` calls never exceed the plan.
        this.plannedSteps = plannedSteps(config.epochs(), sampler.stepsPerEpoch());
        double z = config.noiseMultiplier();
        LedgerAccounting accounting = ledger().orElseThrow().accounting();
        if (Double.isNaN(z)) {
            Calibration c = accounting.calibrate(this::eventPerStep, plannedSteps, config.delta(), config.targetEpsilon());
            z = c.noise();
            LOG.debug("Calibrated noise multiplier z = {} for epsilon = {} (achieved {}) at delta = {} over {} steps",
                    z, config.targetEpsilon(), c.epsilon(), config.delta(), plannedSteps);
        }
        this.stepEvent = eventPerStep(z);
        accounting.requireSupported(stepEvent);
        this.mechanism = "DP-SGD step: " + (sampler instanceof PoissonSampler ? "Poisson-sampled" : "fixed-size batch of")
                + " Gaussian mechanism, per-example clip C = " + config.clipNorm() + ", z = " + z;
        if (engine != null && !(net instanceof MultiLayerNetwork)) {
            throw new IllegalArgumentException("an engine of the caller's (engine(...)) clips a MultiLayerNetwork; build the"
                    + " trainer of a ComputationGraph with device(...) instead");
        }
        this.optimizer = net instanceof ComputationGraph graph
                ? new DpOptimizer(graph, config.clipNorm(), z, sampler.expectedBatchSize(), noise)
                : engine != null
                ? new DpOptimizer((MultiLayerNetwork) net, config.clipNorm(), z, sampler.expectedBatchSize(), noise, engine)
                : new DpOptimizer((MultiLayerNetwork) net, config.clipNorm(), z, sampler.expectedBatchSize(), noise, device);
        if (net instanceof ComputationGraph) {
            optimizer.useDevice(device);
        }
        if (!noise.isSecure()) {
            LOG.warn("DP-SGD is running with an insecure noise source ({}); its epsilon is not a real guarantee.",
                    noise.description());
        }
    }

    private static BatchSampler samplerOf(DpSgdConfig config, long n) {
        return config.sampling() == SamplingScheme.POISSON
                ? PoissonSampler.withExpectedBatchSize(n, config.batchSize())
                : new FixedSizeSampler(n, config.batchSize());
    }

    private static RunLedger ledger(DpSgdConfig config, INDArray features, NoiseSource noise, AccountantFactory accountants) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(features, "features");
        BatchSampler sampler = samplerOf(config, features.size(0));
        return new RunLedger(new LedgerAccounting(accountants, sampler.relation()),
                new PrivacyBudget(config.epsilonBudget(), config.delta()), noise.isSecure());
    }

    private DpEvent eventPerStep(double noiseMultiplier) {
        GaussianEvent gaussian = new GaussianEvent(noiseMultiplier);
        return sampler instanceof PoissonSampler
                ? new PoissonSampledEvent(sampler.samplingRate(), gaussian)
                : new SampledWithoutReplacementEvent(sampler.datasetSize(), (long) sampler.expectedBatchSize(), gaussian);
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
        int[] rows = sampler.sample(random);
        // Nd4j.pullRows is one native gather; INDArray.getRows is many times slower.
        INDArray x = rows.length == 0 ? features.get(NDArrayIndex.interval(0, 0)) : Nd4j.pullRows(features, 1, rows);
        INDArray y = rows.length == 0 ? labels.get(NDArrayIndex.interval(0, 0)) : Nd4j.pullRows(labels, 1, rows);
        INDArray xNormsSq = rows.length == 0 ? null : Nd4j.pullRows(featureSquaredNorms, 1, rows);
        lastBatch = optimizer.step(x, y, xNormsSq);
        if (lastBatch == null) {
            measuredNoLoss();
        } else {
            measuredLoss(lastBatch.lossSums().getDouble(0) / rows.length);
        }
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

    public double noiseMultiplier() {
        return optimizer.noiseMultiplier();
    }

    public BatchSampler sampler() {
        return sampler;
    }

    public DpSgdConfig config() {
        return config;
    }

    /**
     * The network being trained.
     *
     * @throws IllegalStateException for a trainer of a {@link ComputationGraph}, which has no {@code MultiLayerNetwork}
     */
    public MultiLayerNetwork network() {
        if (optimizer.model() instanceof MultiLayerNetwork net) {
            return net;
        }
        throw new IllegalStateException("this trainer trains a ComputationGraph: use the graph you built it with;"
                + " network() and model() return MultiLayerNetworks");
    }

    @Override
    public INDArray parameters() {
        INDArray params = optimizer.model().params();
        return params.dup().reshape(params.length());
    }

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
     * past the completed steps, so that a resumed run continues exactly as an uninterrupted one.
     */
    @Override
    protected void restoreState(RunState state, long completedSteps) {
        NetworkState.restore(optimizer.model(), state);
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
        private NoiseSource noise;
        private RandomGenerator random;
        private AccountantFactory accountants = AccountantFactory.standard();
        private RunSettings settings;
        private ComputeDevice device = ComputeDevice.AUTO;
        private ExampleGradients engine;

        private Builder(Model net, DpSgdConfig config) {
            this.net = Objects.requireNonNull(net, "network");
            this.config = Objects.requireNonNull(config, "config");
        }

        /** The training examples as arrays (one row per example). */
        public Builder data(INDArray features, INDArray labels) {
            this.features = features;
            this.labels = labels;
            return this;
        }

        /** The training examples of an iterator, read once (it is reset first and after). Masks are refused. */
        public Builder data(DataSetIterator iterator) {
            Objects.requireNonNull(iterator, "iterator");
            List<INDArray> xs = new ArrayList<>();
            List<INDArray> ys = new ArrayList<>();
            if (iterator.resetSupported()) {
                iterator.reset();
            }
            while (iterator.hasNext()) {
                DataSet d = iterator.next();
                if (d.getFeaturesMaskArray() != null || d.getLabelsMaskArray() != null) {
                    throw new IllegalArgumentException("the iterator's batches carry masks; private training takes one"
                            + " feature row and one label row per example, without masks");
                }
                if (d.getFeatures().rank() != 2 || d.getLabels().rank() != 2) {
                    throw new IllegalArgumentException("the iterator's batches have features of rank " + d.getFeatures().rank()
                            + " and labels of rank " + d.getLabels().rank() + "; private training takes flat rows (rank 2)");
                }
                xs.add(d.getFeatures());
                ys.add(d.getLabels());
            }
            if (iterator.resetSupported()) {
                iterator.reset();
            }
            if (xs.isEmpty()) {
                throw new IllegalArgumentException("the iterator holds no examples");
            }
            var type = net.params().dataType();
            this.features = Nd4j.vstack(xs.toArray(INDArray[]::new)).castTo(type);
            this.labels = Nd4j.vstack(ys.toArray(INDArray[]::new)).castTo(type);
            return this;
        }

        /** The noise source (e.g. a seeded one for reproducible experiments; NOT secure). */
        public Builder noise(NoiseSource source) {
            this.noise = Objects.requireNonNull(source, "noise source");
            return this;
        }

        /** The randomness of batch sampling. */
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

        /** The settings recorded with the run (in its checkpoint); by default those of the config. */
        public Builder settings(RunSettings runSettings) {
            this.settings = Objects.requireNonNull(runSettings, "settings");
            return this;
        }

        public PrivateTrainer build() {
            if (features == null) {
                throw new IllegalStateException("give the training data with data(features, labels) or data(iterator)");
            }
            return new PrivateTrainer(net, config, features, labels, noise != null ? noise : new LookAheadNoiseSource(),
                    random != null ? random : new SecureRandom(), accountants, settings != null ? settings : config.settings(),
                    device, engine);
        }
    }
}
