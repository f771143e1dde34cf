package org.dpdl4j.runtime;

/** Watches a run: called on the training thread after every completed step. */
@FunctionalInterface
public interface RunListener {

    /** The run has completed a step ({@link TrainingRun#completedSteps()} counts it). */
    void onStep(TrainingRun run);
}
