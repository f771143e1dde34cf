package org.dpdl4j.runtime;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongFunction;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.ledger.Charge;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.indexing.BooleanIndexing;
import org.nd4j.linalg.indexing.conditions.Conditions;

/**
 * What every protocol's run shares: the step counter, the listeners, the ledger, the loss of the last step and the
 * divergence check. A protocol implements {@link #takeStep(long)}, in which it must {@link #spend} the step's
 * mechanism applications before it releases anything (the ledger refuses a step over budget before it happens), and
 * reports the loss it measured with {@link #measuredLoss(double)}.
 */
public abstract class AbstractTrainingRun implements TrainingRun {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AbstractTrainingRun.class);
    private final String protocol;
    private final RunSettings settings;
    private final RunLedger ledger;
    private final List<RunListener> listeners = new CopyOnWriteArrayList<>();
    private long completed;
    private double lastLoss = Double.NaN;
    private final java.util.Map<String, String> reports = new java.util.LinkedHashMap<>();

    /**
     * @param protocol the registered name
     * @param settings what the run was built from
     * @param ledger   the run's ledger, or null for a protocol without a privacy guarantee
     */
    protected AbstractTrainingRun(String protocol, RunSettings settings, RunLedger ledger) {
        this.protocol = Objects.requireNonNull(protocol, "protocol");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.ledger = ledger;
    }

    /**
     * One step of the protocol.
     *
     * @param index the 0-based index of the step ({@link #completedSteps()} before it)
     */
    protected abstract void takeStep(long index);

    @Override
    public final void step() {
        long index = completed;
        if (index == 0) {
            updateNoise().flatMap(UpdateNoise::warning).ifPresent(LOG::warn);   // before the first step: it may not learn
        }
        takeStep(index);
        completed = index + 1;
        for (RunListener l : listeners) {
            l.onStep(this);
        }
    }

    /** Records the step's application of a mechanism to every protected unit; refuses it when over budget. */
    protected final void spend(DpEvent event, String mechanism) {
        requireLedger().spend(completed, event, mechanism);
    }

    /** Records the step's applications together; refuses them all when over budget. */
    protected final void spend(List<Charge> charges) {
        requireLedger().spend(completed, charges);
    }

    /**
     * A planned ledger ({@link #plannedLedger()}) for a run that makes the same applications every step: every
     * planned step spends {@code event} on every party.
     */
    protected final Optional<PrivacyLedger> plannedRepetition(DpEvent event, String mechanism) {
        return Optional.of(PrivacyLedger.plannedRepetition(event, mechanism, plannedSteps(), requireLedger().secureNoise()));
    }

    /**
     * A planned ledger ({@link #plannedLedger()}) from the charges of each step, by 0-based step index, over the
     * planned steps.
     */
    protected final Optional<PrivacyLedger> plannedLedger(LongFunction<List<Charge>> chargesOfStep) {
        return Optional.of(PrivacyLedger.planned(plannedSteps(), chargesOfStep, requireLedger().secureNoise()));
    }

    private RunLedger requireLedger() {
        if (ledger == null) {
            throw new IllegalStateException(protocol + " was built without a ledger, so it cannot spend privacy");
        }
        return ledger;
    }

    /**
     * The mean loss the step measured. A loss that is not finite stops the run only when a parameter is not finite
     * either: the parameters come from the released (noisy) steps, so whether the run stops says nothing more about the
     * data, whereas the loss of a private batch alone may be infinite for one example the model gives no probability
     * (its clipped gradient is still finite), and stopping on it would reveal that example unpriced.
     *
     * @throws TrainingDivergedException when the loss and a parameter are not finite
     */
    protected final void measuredLoss(double loss) {
        lastLoss = loss;
        if (!Double.isFinite(loss) && !finiteParameters()) {
            throw new TrainingDivergedException(completed + 1, stepUnit(), "loss = " + loss + " and a parameter is not a"
                    + " finite number", divergenceHint());
        }
    }

    /** The step measured no loss (it saw no example). */
    protected final void measuredNoLoss() {
        lastLoss = Double.NaN;
    }

    /** What to do when the run diverges. */
    protected String divergenceHint() {
        return "lower the learning rate or the clip";
    }

    /**
     * Checks that the run's parameters are finite numbers (before a checkpoint or a final model is written).
     *
     * @throws TrainingDivergedException when one is not
     */
    public void requireFiniteParameters() {
        if (!finiteParameters()) {
            throw new TrainingDivergedException(completed, stepUnit(), "a parameter is not a finite number", divergenceHint());
        }
    }

    private boolean finiteParameters() {
        INDArray p = partyParameters().orElseGet(this::parameters);
        return !BooleanIndexing.or(p, Conditions.isNan()) && !BooleanIndexing.or(p, Conditions.isInfinite());
    }

    /**
     * Records how the training data was split over the parties ({@code partition.txt} in {@link #reports()}); a
     * null text (the parties' data was given) records nothing.
     */
    protected final void partitionReport(String text) {
        if (text != null) {
            reports.put("partition.txt", text);
        }
    }

    @Override
    public java.util.Map<String, String> reports() {
        return java.util.Collections.unmodifiableMap(reports);
    }

    @Override
    public final long completedSteps() {
        return completed;
    }

    @Override
    public final String protocol() {
        return protocol;
    }

    @Override
    public final RunSettings settings() {
        return settings;
    }

    @Override
    public final double lastLoss() {
        return lastLoss;
    }

    @Override
    public final Optional<RunLedger> ledger() {
        return Optional.ofNullable(ledger);
    }

    @Override
    public final void addListener(RunListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public final void restore(RunState state, long completedSteps) {
        if (completedSteps < 0) {
            throw new IllegalArgumentException("a saved run has completed at least 0 steps, got " + completedSteps);
        }
        restoreState(state, completedSteps);
        completed = completedSteps;
        lastLoss = Double.NaN;
    }

    /** Restores the protocol's own state (arrays, counters, replayed streams) after {@code completedSteps} steps. */
    protected abstract void restoreState(RunState state, long completedSteps);

    /** A copy of {@code template} holding the given parameters. */
    protected static MultiLayerNetwork withParameters(MultiLayerNetwork template, INDArray parameters) {
        MultiLayerNetwork net = template.clone();
        net.setParams(parameters.reshape(1, parameters.length()).castTo(net.params().dataType()));
        return net;
    }

    @Override
    public void close() {
    }
}
