package org.dpdl4j.demo.dpgd;

import java.util.List;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.AbstractTrainingRun;
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
 * The run of {@code dp-gd}: theta &lt;- theta - eta (sum_i clip_C(grad_i) + N(0, (zC)^2 I)) / n. Each step records a
 * Gaussian mechanism of multiplier z in the ledger before it releases anything.
 *
 * <p>On an engine of blocks ({@link #distribute}) the examples are split into contiguous blocks that each return the
 * clipped gradient sum of their rows; the driver adds the blocks' sums in block order and draws the step's noise, so the
 * noise and the ledger are the same wherever the sums are computed (the sums may differ from one process's in the last
 * bits of float rounding).
 */
final class DpGdRun extends AbstractTrainingRun implements DistributableRun {
    static final String PROTOCOL = "dp-gd";

    private final MultiLayerNetwork template;
    private final TrainingSet data;
    private final long rounds;
    private final double learningRate;
    private final double clip;
    private final double noiseMultiplier;
    private final NoiseKind noise;
    private final long seed;
    private final PerExampleGradients gradients;
    private final INDArray theta;
    private final INDArray grad;
    private BlockEngine blockEngine;
    private BlockRunner<Rows, DpGdBlockOutput> blocks;

    DpGdRun(MultiLayerNetwork template, TrainingSet data, long rounds, double learningRate, double clip, double noiseMultiplier,
            NoiseKind noise, long seed, RunLedger ledger, RunSettings settings) {
        super(PROTOCOL, settings, ledger);
        this.template = template;
        this.data = data;
        this.rounds = rounds;
        this.learningRate = learningRate;
        this.clip = clip;
        this.noiseMultiplier = noiseMultiplier;
        this.noise = noise;
        this.seed = seed;
        this.gradients = PerExampleGradients.of(template);
        this.theta = template.params().dup().reshape(1, template.numParams());
        this.grad = Nd4j.createUninitialized(theta.dataType(), 1, template.numParams());
    }

    @Override
    protected void takeStep(long index) {
        spend(new GaussianEvent(noiseMultiplier), "dp-gd step: full batch, per-example clip C = " + clip
                + ", N(0, (" + noiseMultiplier + " C)^2)");
        double lossSum = blocks == null ? localClippedSum() : blockClippedSum(index);
        noise.source(new NoiseKey(seed, "dp-gd", 0, index)).addGaussian(grad, noiseMultiplier * clip);
        theta.subi(grad.muli(learningRate / data.size()));
        measuredLoss(lossSum / data.size());
    }

    /** The clipped gradient sum of every example into {@code grad}; returns the loss sum. */
    private double localClippedSum() {
        ClippedBatch batch = gradients.clippedSum(theta, data.features(), data.labels(), null, clip, grad);
        return batch.lossSums().sumNumber().doubleValue();
    }

    /** The blocks' clipped gradient sums, added in block order into {@code grad}; returns the loss sum. */
    private double blockClippedSum(long index) {
        Rows parameters = Rows.of(theta);
        List<DpGdBlockOutput> outputs = blocks.step(index, java.util.Collections.nCopies(blocks.blockCount(), parameters));
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
        List<DpGdBlockPlan> plans = new java.util.ArrayList<>();
        for (int b = 0; b < parts.count(); b++) {
            int count = parts.end(b) - parts.first(b);
            plans.add(new DpGdBlockPlan(json, Rows.ofRange(data.features(), parts.first(b), count),
                    Rows.ofRange(data.labels(), parts.first(b), count), clip));
        }
        this.blocks = placement.start(PROTOCOL, plans, new ConstructedBlocks<>(DpGdBlock::new));
        this.blockEngine = placement;
    }

    @Override
    public BlockEngine engine() {
        return blockEngine;
    }

    @Override
    public void close() {
        super.close();
        if (blocks != null) {
            blocks.close();
            blockEngine.close();
        }
    }

    @Override
    public long plannedSteps() {
        return rounds;
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
}
