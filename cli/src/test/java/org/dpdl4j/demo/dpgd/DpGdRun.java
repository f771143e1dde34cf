package org.dpdl4j.demo.dpgd;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.ObservableRun;
import org.dpdl4j.runtime.ObservedRelease;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.TrainingSet;
import org.dpdl4j.runtime.engine.BlockEngine;
import org.dpdl4j.runtime.engine.BlockRunner;
import org.dpdl4j.runtime.engine.ConstructedBlocks;
import org.dpdl4j.runtime.engine.DistributableRun;
import org.dpdl4j.runtime.engine.PartyBlocks;
import org.dpdl4j.runtime.engine.Rows;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The run of {@code dp-gd}: theta &lt;- theta - eta (sum_{i in B_t} clip_C(grad_i) + N(0, (zC)^2 I)) / |B_t|, the
 * batches B_t taken in a fixed cyclic order (the whole training set by default). Each step records a Gaussian
 * mechanism of multiplier z in the ledger before it releases anything.
 *
 * <p>Its declared observer ({@link DpGdProtocol#GRADIENT}) is handed every step's noisy clipped sum
 * ({@link ObservableRun}). On an engine of blocks ({@link #distribute}) the examples are split into contiguous blocks
 * that each return the clipped gradient sum of their rows in the step's batch; the driver adds the blocks' sums in
 * block order and draws the step's noise, so the noise and the ledger are the same wherever the sums are computed
 * (the sums may differ from one process's in the last bits of float rounding).
 */
final class DpGdRun extends AbstractTrainingRun implements DistributableRun, ObservableRun {
    static final String PROTOCOL = "dp-gd";

    private final MultiLayerNetwork template;
    private final TrainingSet data;
    private final DpGdConfig config;
    private final PerExampleGradients gradients;
    private final INDArray theta;
    private final INDArray grad;
    private final List<Consumer<ObservedRelease>> sinks = new ArrayList<>();
    private BlockEngine blockEngine;
    private BlockRunner<DpGdBlockInput, DpGdBlockOutput> blocks;

    DpGdRun(MultiLayerNetwork template, TrainingSet data, DpGdConfig config, RunSettings settings) {
        super(PROTOCOL, settings, config.ledger());
        this.template = template;
        this.data = data;
        this.config = config;
        this.gradients = PerExampleGradients.of(template);
        this.theta = template.params().dup().reshape(1, template.numParams());
        this.grad = Nd4j.createUninitialized(theta.dataType(), 1, template.numParams());
    }

    @Override
    protected void takeStep(long index) {
        spend(config.step(), config.mechanism());
        int[] rows = batch(index);
        INDArray before = sinks.isEmpty() ? null : theta.dup().reshape(theta.length());
        double lossSum = blocks == null ? localClippedSum(rows) : blockClippedSum(index, rows);
        double std = config.noiseMultiplier() * config.clip();
        config.noise().source(new NoiseKey(config.seed(), "dp-gd", 0, index)).addGaussian(grad, std);
        if (before != null) {
            ObservedRelease release = new ObservedRelease(index, before, grad.dup().reshape(grad.length()), 1.0, rows, std,
                    config.clip());
            sinks.forEach(s -> s.accept(release));
        }
        theta.subi(grad.muli(config.learningRate() / rows.length));
        measuredLoss(lossSum / rows.length);
    }

    /** The rows of step t: the next {@code batchSize} examples in cyclic order. */
    private int[] batch(long index) {
        long n = data.size();
        long start = index * config.batchSize() % n;
        return IntStream.range(0, config.batchSize()).map(i -> (int) ((start + i) % n)).toArray();
    }

    /** The clipped gradient sum of the batch into {@code grad}; returns its loss sum. */
    private double localClippedSum(int[] rows) {
        boolean all = rows.length == data.size();   // the whole set in order: no copy of the data
        INDArray x = all ? data.features() : Nd4j.pullRows(data.features(), 1, rows);
        INDArray y = all ? data.labels() : Nd4j.pullRows(data.labels(), 1, rows);
        ClippedBatch batch = gradients.clippedSum(theta, x, y, null, config.clip(), grad);
        return batch.lossSums().sumNumber().doubleValue();
    }

    /** The blocks' clipped gradient sums, added in block order into {@code grad}; returns the loss sum. */
    private double blockClippedSum(long index, int[] rows) {
        DpGdBlockInput input = new DpGdBlockInput(Rows.of(theta), rows);
        List<DpGdBlockOutput> outputs = blocks.step(index, Collections.nCopies(blocks.blockCount(), input));
        grad.assign(0);
        double lossSum = 0;
        for (DpGdBlockOutput o : outputs) {
            grad.addi(o.clippedSum().toArray());
            lossSum += o.lossSum();
        }
        return lossSum;
    }

    /** Splits the examples into contiguous blocks placed by {@code placement}, which this run then closes. */
    @Override
    public void distribute(BlockEngine placement) {
        if (blockEngine != null) {
            throw new IllegalStateException("this run already runs on " + blockEngine.describe());
        }
        int n = Math.toIntExact(data.size());
        PartyBlocks parts = PartyBlocks.of(n, placement.blocksFor(n));
        String json = template.getLayerWiseConfigurations().toJson();
        List<DpGdBlockPlan> plans = new ArrayList<>();
        for (int b = 0; b < parts.count(); b++) {
            int count = parts.end(b) - parts.first(b);
            plans.add(new DpGdBlockPlan(json, parts.first(b), Rows.ofRange(data.features(), parts.first(b), count),
                    Rows.ofRange(data.labels(), parts.first(b), count), config.clip()));
        }
        this.blocks = placement.start(PROTOCOL, plans, new ConstructedBlocks<>(DpGdBlock::new));
        this.blockEngine = placement;
    }

    @Override
    public BlockEngine engine() {
        return blockEngine;
    }

    @Override
    public void observe(String observer, Consumer<ObservedRelease> sink) {
        if (!DpGdProtocol.GRADIENT.name().equals(observer)) {
            throw new IllegalArgumentException("dp-gd has no observer '" + observer + "'; it declares "
                    + DpGdProtocol.GRADIENT.name());
        }
        sinks.add(java.util.Objects.requireNonNull(sink, "sink"));
    }

    @Override
    public java.util.Optional<PrivacyLedger> plannedLedger() {
        return java.util.Optional.of(config.plannedLedger().ledger());
    }

    @Override
    public long plannedSteps() {
        return config.rounds();
    }

    @Override
    public String stepUnit() {
        return "step";
    }

    @Override
    public INDArray parameters() {
        return theta.dup().reshape(theta.length());
    }

    @Override
    public MultiLayerNetwork model() {
        return withParameters(template, parameters());
    }

    @Override
    public RunState state() {
        return RunState.builder().array("theta", theta).build();
    }

    @Override
    protected void restoreState(RunState state, long completedSteps) {
        theta.assign(state.array("theta", theta.shape()));
    }

    @Override
    public void close() {
        super.close();
        if (blocks != null) {
            blocks.close();
            blockEngine.close();
        }
    }
}
