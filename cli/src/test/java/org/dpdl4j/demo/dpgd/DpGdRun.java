package org.dpdl4j.demo.dpgd;

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
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The run of {@code dp-gd}: theta &lt;- theta - eta (sum_i clip_C(grad_i) + N(0, (zC)^2 I)) / n. Each step records a
 * Gaussian mechanism of multiplier z in the ledger before it releases anything.
 */
final class DpGdRun extends AbstractTrainingRun {
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
        ClippedBatch batch = gradients.clippedSum(theta, data.features(), data.labels(), null, clip, grad);
        noise.source(new NoiseKey(seed, "dp-gd", 0, index)).addGaussian(grad, noiseMultiplier * clip);
        theta.subi(grad.muli(learningRate / data.size()));
        measuredLoss(batch.lossSums().sumNumber().doubleValue() / data.size());
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
