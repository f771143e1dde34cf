package org.dpdl4j.runtime.engine;

import java.util.List;

/**
 * Blocks of one run, opened where a {@link BlockEngine} placed them: each round, every block is sent its input and
 * returns its output.
 *
 * @param <I> what a block is sent for one round
 * @param <O> what a block sends back
 */
public interface BlockRunner<I, O> extends AutoCloseable {

    /** The number of blocks. */
    int blockCount();

    /**
     * Steps every block once.
     *
     * @param inputs one per block, in block order
     * @return one per block, in block order
     */
    List<O> step(long round, List<I> inputs);

    /** Releases the blocks' workers and data. */
    @Override
    void close();
}
