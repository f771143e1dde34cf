package org.dpdl4j.optim;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.accounting.Calibration;
import org.dpdl4j.privacy.accounting.Calibrator;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.EpsilonBound;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.MechanismDescription;
import org.dpdl4j.privacy.accounting.PoissonSampledEvent;
import org.dpdl4j.privacy.accounting.PrivacyStatement;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.RdpAccountant;
import org.dpdl4j.privacy.accounting.SampledWithoutReplacementEvent;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.accounting.SelfComposedEvent;
import org.dpdl4j.privacy.noise.NoiseSource;
import org.dpdl4j.privacy.noise.LookAheadNoiseSource;
import org.dpdl4j.privacy.noise.SecureNoiseSource;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Central DP-SGD for a DL4J network: the one entry point that makes training private. It draws each
 * step's batch with its {@link BatchSampler}, takes a {@link DpOptimizer} step (per-example clipping, noise,
 * the network's own updater), and accounts every step with an RDP accountant whose analysis is chosen by
 * the sampler, so sampling and accounting cannot disagree. Before each step it checks the budget and
 * stops with {@link PrivacyBudgetExceededException} rather than exceed it.
 *
 * <pre>{@code
 * PrivateTrainer trainer = PrivateTrainer.create(net, DpSgdConfig.forTarget(1.0, 2.0, 1e-5, 256, 30), train.getFeatures(), train.getLabels());
 * for (int e = 0; e < 30; e++) trainer.fitEpoch();
 * System.out.println(trainer.statement());
 * }</pre>
 *
 * By default noise comes from {@link SecureNoiseSource} (drawn one step ahead on a background thread,
 * {@link LookAheadNoiseSource}) and batches are sampled with {@link SecureRandom}.
 */
public final class PrivateTrainer {
    private static final Logger LOG = LoggerFactory.getLogger(PrivateTrainer.class);

    private final DpSgdConfig config;
    private final INDArray features;
    /** ||x_i||^2 of every training example, [N, 1]: data only, so computed once and gathered with each batch. */
    private final INDArray featureSquaredNorms;
    private final INDArray labels;
    private final BatchSampler sampler;
    private final RandomGenerator random;
    private final DpOptimizer optimizer;
    private final RdpAccountant accountant;
    private final DpEvent stepEvent;
    private final double[] stepCurve;
    private final long plannedSteps;
    private long steps;

    private PrivateTrainer(MultiLayerNetwork net, DpSgdConfig config, INDArray features, INDArray labels,
                           NoiseSource noise, RandomGenerator random) {
        this.config = Objects.requireNonNull(config, "config");
        this.features = Objects.requireNonNull(features, "features");
        this.labels = Objects.requireNonNull(labels, "labels");
        if (features.size(0) != labels.size(0)) {
            throw new IllegalArgumentException("features have " + features.size(0) + " rows but labels have " + labels.size(0));
        }
        long n = features.size(0);
        this.featureSquaredNorms = RowNorms.squared(features, 1).reshape(n, 1).detach();
        this.sampler = config.sampling() == SamplingScheme.POISSON
                ? PoissonSampler.withExpectedBatchSize(n, config.batchSize())
                : new FixedSizeSampler(n, config.batchSize());
        this.random = random;
        this.accountant = new RdpAccountant(sampler.relation());
        // Planned in whole fitEpoch() calls' worth of steps, so that `epochs` calls never exceed the plan.
        this.plannedSteps = (long) Math.ceil(config.epochs() * sampler.stepsPerEpoch() - 1e-9);
        double z = config.noiseMultiplier();
        if (Double.isNaN(z)) {
            Calibration c = Calibrator.calibrate(accountant, s -> new SelfComposedEvent(eventPerStep(s), plannedSteps),
                    config.delta(), config.targetEpsilon());
            z = c.noise();
            LOG.info("Calibrated noise multiplier z = {} for epsilon = {} (achieved {}) at delta = {} over {} steps",
                    z, config.targetEpsilon(), c.epsilon(), config.delta(), plannedSteps);
        }
        this.stepEvent = eventPerStep(z);
        this.stepCurve = accountant.curve(stepEvent);
        this.optimizer = new DpOptimizer(net, config.clipNorm(), z, sampler.expectedBatchSize(), noise);
        if (!noise.isSecure()) {
            LOG.warn("DP-SGD is running with an insecure noise source ({}); its epsilon is not a real guarantee.",
                    noise.description());
        }
    }

    private DpEvent eventPerStep(double noiseMultiplier) {
        GaussianEvent gaussian = new GaussianEvent(noiseMultiplier);
        return sampler instanceof PoissonSampler
                ? new PoissonSampledEvent(sampler.samplingRate(), gaussian)
                : new SampledWithoutReplacementEvent(sampler.datasetSize(), (long) sampler.expectedBatchSize(), gaussian);
    }

    /** A trainer with secure noise and secure sampling. */
    public static PrivateTrainer create(MultiLayerNetwork net, DpSgdConfig config, INDArray features, INDArray labels) {
        return new PrivateTrainer(net, config, features, labels, new LookAheadNoiseSource(), new SecureRandom());
    }

    /** A trainer with the given noise source and sampling randomness (e.g. seeded ones for reproducible experiments). */
    public static PrivateTrainer create(MultiLayerNetwork net, DpSgdConfig config, INDArray features, INDArray labels,
                                        NoiseSource noise, RandomGenerator samplingRandom) {
        return new PrivateTrainer(net, config, features, labels, noise, samplingRandom);
    }

    /**
     * One private step: checks the budget, samples a batch, updates the model, accounts the step.
     *
     * @return what the batched pass measured, or null for an empty (Poisson) batch; its arrays are overwritten by the
     *         next step (see {@link DpOptimizer#step(INDArray, INDArray)})
     * @throws PrivacyBudgetExceededException if the step would exceed the budget (nothing is changed)
     */
    public ClippedBatch step() {
        double next = epsilonAfter(steps + 1).epsilon();
        if (next > config.epsilonBudget()) {
            throw new PrivacyBudgetExceededException(steps, epsilon(), next, config.epsilonBudget(), config.delta());
        }
        int[] rows = sampler.sample(random);
        // Nd4j.pullRows is one native gather; INDArray.getRows is many times slower.
        INDArray x = rows.length == 0 ? features.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(0, 0)) : Nd4j.pullRows(features, 1, rows);
        INDArray y = rows.length == 0 ? labels.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(0, 0)) : Nd4j.pullRows(labels, 1, rows);
        INDArray xNormsSq = rows.length == 0 ? null : Nd4j.pullRows(featureSquaredNorms, 1, rows);
        ClippedBatch batch = optimizer.step(x, y, xNormsSq);
        steps++;
        return batch;
    }

    /** Adds an observer of every step's released noisy gradient (see {@link DpOptimizer#addObserver}). */
    public void addObserver(StepObserver observer) {
        optimizer.addObserver(observer);
    }

    /** Runs one epoch's worth of steps (1/q, rounded), stopping early at the budget. */
    public void fitEpoch() {
        long n = sampler.stepsPerEpoch();
        for (long i = 0; i < n; i++) {
            step();
        }
        optimizer.network().incrementEpochCount();
    }

    /** Epsilon spent so far (standard conversion). */
    public double epsilon() {
        return epsilonAfter(steps).epsilon();
    }

    /** The guarantee after {@code count} steps with the given conversion. */
    public EpsilonBound epsilonAfter(long count, Conversion conversion) {
        return accountant.epsilonBound(stepCurve, count, config.delta(), conversion);
    }

    private EpsilonBound epsilonAfter(long count) {
        return epsilonAfter(count, Conversion.STANDARD);
    }

    /** The privacy statement of the steps taken so far. */
    public PrivacyStatement statement() {
        RdpAccountant ledger = accountant.copy().compose(stepEvent, steps);
        SamplingScheme scheme = sampler instanceof PoissonSampler ? SamplingScheme.POISSON : SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT;
        MechanismDescription d = new MechanismDescription("DP-SGD (subsampled Gaussian mechanism, per-example clipping to C = "
                + config.clipNorm() + ")", ProtectedUnit.EXAMPLE, scheme, sampler.samplingRate(), optimizer.noiseMultiplier(), steps);
        return PrivacyStatement.of(ledger, d, config.delta());
    }

    public long steps() {
        return steps;
    }

    public long plannedSteps() {
        return plannedSteps;
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

    public MultiLayerNetwork network() {
        return optimizer.network();
    }
}
