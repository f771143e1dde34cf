package org.dpdl4j.runtime.engine;

/**
 * A block of parties opened where it is placed, which runs its own rounds.
 *
 * @param <I> what the block is sent for one round
 * @param <O> what it sends back
 */
public interface BlockWorker<I, O> extends AutoCloseable {

    /** One round of the block's parties. */
    O step(long round, I input);
}
