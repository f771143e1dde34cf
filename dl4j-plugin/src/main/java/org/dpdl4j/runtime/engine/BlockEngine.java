package org.dpdl4j.runtime.engine;

import java.io.Serializable;
import java.util.List;

/**
 * Places the blocks of a run and runs their rounds: in this JVM ({@link InProcessBlocks}) or on a cluster. Closing an
 * engine releases what it started (a cluster connection); engines lent to a run by a caller who keeps them are closed
 * by that caller.
 */
public interface BlockEngine extends AutoCloseable {

    /** How many blocks to split {@code parties} parties into, at least 1 and at most {@code parties}. */
    int blocksFor(int parties);

    /**
     * Opens the blocks of a run.
     *
     * @param name    what the blocks belong to, for logs and the cluster's job names
     * @param plans   one per block, in block order
     * @param program what each block does
     */
    <P extends Serializable, W extends AutoCloseable, I extends Serializable, O extends Serializable> BlockRunner<I, O> start(
            String name, List<P> plans, BlockProgram<P, W, I, O> program);

    /**
     * A view of this engine for one run among several that share it (a reproduction's grid): the run uses it as its own,
     * and closing the view leaves this engine open.
     */
    default BlockEngine lent() {
        return new LentBlockEngine(this);
    }

    /** One line for logs and the run's configuration, e.g. {@code spark local[2], 4 blocks}. */
    String describe();

    @Override
    void close();
}
