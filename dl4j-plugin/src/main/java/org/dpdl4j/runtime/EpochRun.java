package org.dpdl4j.runtime;

/** A run over one dataset whose steps make epochs (central training): evaluated and reported by epoch. */
public interface EpochRun extends TrainingRun {

    /** Steps per epoch (one pass over the data, in expectation under Poisson sampling). */
    long stepsPerEpoch();

    /** Runs one epoch's steps. */
    void fitEpoch();

    /** Epochs completed so far. */
    default long completedEpochs() {
        return completedSteps() / stepsPerEpoch();
    }

    /** Epochs planned. */
    default long plannedEpochs() {
        return (plannedSteps() + stepsPerEpoch() - 1) / stepsPerEpoch();
    }
}
