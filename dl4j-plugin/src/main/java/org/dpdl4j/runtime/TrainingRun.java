package org.dpdl4j.runtime;

import java.util.Optional;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * One training run of any protocol (central DP-SGD, the decentralized and federated protocols, the random walk,
 * and every protocol registered later), in one shape: built from one set of {@link RunSettings}, advanced step by
 * step (a step is a round of a synchronous protocol, an optimizer step of central training, a token hop of a walk),
 * watched by {@link RunListener}s, accounted by its own {@link RunLedger}, saved and restored through
 * {@link RunCheckpoint}, and ending in DL4J models.
 *
 * <p>A step that would take the ledger past its budget is refused before anything happens
 * ({@link org.dpdl4j.privacy.ledger.PrivacyBudgetExceededException}); a step whose loss and parameters are not finite
 * stops the run ({@link TrainingDivergedException}: a non-finite loss with finite parameters does not, since that loss
 * comes from the private batch alone).
 */
public interface TrainingRun extends AutoCloseable {

    /** The protocol's registered name, e.g. {@code decor}. */
    String protocol();

    /** The settings the run was built from. */
    RunSettings settings();

    /**
     * Settings that, for this protocol, define what the saved state or its ledger means although they change only the
     * mechanism of others ({@link org.dpdl4j.runtime.options.ResumeRule#MECHANISM}): a resume refuses to change them as
     * it refuses an identity setting. By option name without dashes, each with the text of the value the run takes when
     * the setting is not given ("" when there is none), so that giving that value is no change; none by default.
     */
    default java.util.Map<String, String> settingsFixedOnResume() {
        return java.util.Map.of();
    }

    /**
     * Why the steps of a saved ledger and this run's next ones would not be one mechanism although no setting changed
     * (steps a former version recorded and calibrated otherwise), or null when they would be. A resume refuses such a
     * ledger unless its policy allows mechanism changes, and then continues it in a new segment; none by default.
     */
    default String mechanismChangeSince(org.dpdl4j.privacy.ledger.PrivacyLedger saved) {
        return null;
    }

    /** Steps completed so far. */
    long completedSteps();

    /** Steps the run was planned (and its noise calibrated) for. */
    long plannedSteps();

    /** What a step is called in messages: {@code round}, {@code step}, {@code hop}. */
    String stepUnit();

    /** Whether the planned steps are done. */
    default boolean isFinished() {
        return completedSteps() >= plannedSteps();
    }

    /**
     * Takes one step.
     *
     * @throws org.dpdl4j.privacy.ledger.PrivacyBudgetExceededException before a step that would exceed the budget
     *                                                                  (nothing changes)
     * @throws TrainingDivergedException                               when the step's loss and a parameter are not finite
     */
    void step();

    /** Takes {@code count} steps. */
    default void run(long count) {
        for (long i = 0; i < count; i++) {
            step();
        }
    }

    /** Takes the remaining planned steps. */
    default void runToEnd() {
        while (!isFinished()) {
            step();
        }
    }

    /** Mean training loss measured by the last step, NaN when it measured none (an empty Poisson batch). */
    double lastLoss();

    /** The run's privacy ledger; empty for a protocol without a privacy guarantee. */
    Optional<RunLedger> ledger();

    /**
     * The ledger the run will hold once its planned steps are taken, known before the first step (it depends on the
     * settings and the sizes of the data, never on their values), priced like {@link #ledger()}: what tuning needs to
     * bound a candidate before it runs. A run stopped early by its budget spends less. Empty for a protocol without a
     * guarantee, or one that cannot tell its spend in advance.
     */
    default Optional<PrivacyLedger> plannedLedger() {
        return Optional.empty();
    }

    /**
     * The noise on each averaged update against the largest update, for a check before training
     * ({@link UpdateNoise#warning()}); empty for a protocol without noise or one that does not say.
     */
    default Optional<UpdateNoise> updateNoise() {
        return Optional.empty();
    }

    /** Epsilon spent so far (standard conversion), or +Infinity for a protocol without a guarantee. */
    default double epsilon() {
        return ledger().map(RunLedger::epsilon).orElse(Double.POSITIVE_INFINITY);
    }

    /** The parameters of the run's model (the average of the parties' models where there are several), as [p]. */
    INDArray parameters();

    /** Every party's model as the rows of an [n, p] matrix, when the protocol keeps one per party. */
    default Optional<INDArray> partyParameters() {
        return Optional.empty();
    }

    /**
     * Whether {@link #partyParameters()} are post-processings of what the parties released, so that the run's privacy
     * statement covers them when they are saved; false where they are internal states a party never publishes.
     */
    default boolean partyModelsReleased() {
        return true;
    }

    /** A network with the run's configuration and {@link #parameters()}: what {@code ModelSerializer} saves. */
    MultiLayerNetwork model();

    /**
     * Texts the run's set-up produced that people want to see beside its results, by file name (for example
     * {@code partition.txt}: how the data was split over the parties).
     */
    default java.util.Map<String, String> reports() {
        return java.util.Map.of();
    }

    /**
     * The values the set-up resolved (calibrated noise, constants, graph facts), by name, in order: for the run's
     * configuration file and summary.
     */
    default java.util.Map<String, Object> resolved() {
        return java.util.Map.of();
    }

    /**
     * The privacy statement of the steps taken so far: the protocol's analysis and its assumptions, then the ledger
     * and what it adds up to; empty for a protocol without a guarantee.
     */
    default String privacyStatement() {
        return ledger().map(org.dpdl4j.privacy.ledger.LedgerStatement::text).orElse("");
    }

    /** Adds a listener called after every completed step. */
    void addListener(RunListener listener);

    /** The state that, with the ledger and the step count, is enough to continue the run. */
    RunState state();

    /**
     * Restores a state saved by {@link #state()} after {@code completedSteps} steps.
     *
     * @throws IllegalArgumentException when the state does not fit this run (another protocol, other shapes)
     */
    void restore(RunState state, long completedSteps);

    @Override
    void close();
}
