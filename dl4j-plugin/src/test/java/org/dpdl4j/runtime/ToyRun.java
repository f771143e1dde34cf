package org.dpdl4j.runtime;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The smallest private run, for testing what {@link RunCheckpoint} and {@link AbstractTrainingRun} do independently of
 * any protocol: each step charges one Gaussian release to everyone and adds its step number to a parameter vector.
 */
final class ToyRun extends AbstractTrainingRun {
    static final String PROTOCOL = "toy";
    static final double NOISE_MULTIPLIER = 4.0;

    private final INDArray params = Nd4j.createFromArray(0.5, 0.75, 1.0, 1.25, 1.5, 1.75);
    private final long planned;
    private double lastNoise = 0.1 + 0.2;
    private double lossOverride = Double.NaN;

    /** A private run with the given settings, planned for {@code planned} steps, priced under {@code relation}. */
    ToyRun(RunSettings settings, long planned, NeighbouringRelation relation) {
        this(settings, planned, relation, AccountantFactory.standard());
    }

    /** The same, priced by the given accountants. */
    ToyRun(RunSettings settings, long planned, NeighbouringRelation relation, AccountantFactory accountants) {
        super(PROTOCOL, settings, new RunLedger(new LedgerAccounting(accountants, relation), PrivacyBudget.unlimited(1e-5), true));
        this.planned = planned;
    }

    /** A run without a privacy ledger. */
    ToyRun(RunSettings settings, long planned) {
        super(PROTOCOL, settings, null);
        this.planned = planned;
    }

    /** The settings of a plain toy run of {@code rounds} steps. */
    static RunSettings settings(long rounds) {
        return RunSettings.empty().with(RunOptions.SEED, 3L).with(RunOptions.ROUNDS, rounds).with(RunOptions.LEARNING_RATE, 0.5);
    }

    static ToyRun of(long rounds) {
        return new ToyRun(settings(rounds), rounds, NeighbouringRelation.REPLACE_ONE);
    }

    @Override
    protected void takeStep(long index) {
        if (ledger().isPresent()) {
            spend(new GaussianEvent(NOISE_MULTIPLIER), "toy release");
        }
        params.addi(index + 1);
        lastNoise = lastNoise * 1.5;
        measuredLoss(Double.isNaN(lossOverride) ? params.sumNumber().doubleValue() : lossOverride);
    }

    /** Makes every later step measure {@code loss} (NaN: the sum of the parameters again). */
    void measureLoss(double loss) {
        lossOverride = loss;
    }

    /** Makes a parameter NaN, as a diverged model's. */
    void diverge() {
        params.putScalar(2, Double.NaN);
    }

    @Override
    public long plannedSteps() {
        return planned;
    }

    @Override
    public String stepUnit() {
        return "step";
    }

    @Override
    public INDArray parameters() {
        return params.dup();
    }

    @Override
    public MultiLayerNetwork model() {
        throw new UnsupportedOperationException("a toy run has no network");
    }

    @Override
    public RunState state() {
        return RunState.builder().array("params", params).number("noise", lastNoise).number("steps", completedSteps()).build();
    }

    @Override
    protected void restoreState(RunState state, long completedSteps) {
        if (state.longValue("steps") != completedSteps) {
            throw new IllegalArgumentException("the saved step count does not match");
        }
        INDArray saved = state.array("params", params.shape());
        lastNoise = state.doubleValue("noise");
        params.assign(saved);
    }

    double lastNoise() {
        return lastNoise;
    }
}
