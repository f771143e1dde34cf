package org.dpdl4j.optim;

import java.util.random.RandomGenerator;

/**
 * Where a {@link PrivateTrainer}'s steps take their examples from: all of them held in memory, or streamed from an
 * iterator in passes. Either way each step's rows are those its {@link BatchSampler} draws, in step order from the
 * same randomness, so the scheme the ledger accounts for is the one that ran.
 */
interface ExampleSource {

    /** N, the number of training examples sampled from. */
    long size();

    /**
     * The next step's batch, its rows drawn by {@code sampler} with {@code random}.
     *
     * @param stepsLeft the planned steps left, this one included (how far ahead a streaming source may draw); 0 or
     *                  less when the run goes past its plan
     */
    StepBatch next(BatchSampler sampler, RandomGenerator random, long stepsLeft);

    /**
     * Forgets batches drawn ahead of the steps taken, so that after a restore the next step draws afresh (and a
     * replayed seeded stream gives the uninterrupted run's batches).
     */
    void discardDrawnAhead();

    /** How the examples are held, and what that costs in memory (and in passes over an iterator). */
    String description();
}
