package org.dpdl4j.runtime.engine;

import java.io.Serializable;

/**
 * What a block of parties does where it is placed: open a worker from its plan once, then step it every round. It
 * travels to the workers with the plans, so it must be serializable and hold no state of its own; everything a step
 * returns must depend only on the plan, the round and the input, so that a step rerun elsewhere (after a lost worker)
 * returns the same.
 *
 * @param <P> the plan of a block (its parties' data and keys, the model's layout)
 * @param <W> the opened worker (its arrays and engines)
 * @param <I> what a block is sent for one round
 * @param <O> what a block sends back
 */
public interface BlockProgram<P, W extends AutoCloseable, I, O> extends Serializable {

    /** Builds the worker of a block from its plan. */
    W open(P plan);

    /** One round of one block. */
    O step(W worker, long round, I input);
}
