package org.dpdl4j.runtime.engine;

import java.io.Serializable;
import java.util.List;

/** An engine lent to one run: everything but closing goes to the engine (see {@link BlockEngine#lent()}). */
final class LentBlockEngine implements BlockEngine {
    private final BlockEngine engine;

    LentBlockEngine(BlockEngine engine) {
        this.engine = engine;
    }

    @Override
    public int blocksFor(int parties) {
        return engine.blocksFor(parties);
    }

    @Override
    public <P extends Serializable, W extends AutoCloseable, I extends Serializable, O extends Serializable> BlockRunner<I, O> start(
            String name, List<P> plans, BlockProgram<P, W, I, O> program) {
        return engine.start(name, plans, program);
    }

    @Override
    public String describe() {
        return engine.describe();
    }

    @Override
    public void close() {
        // the lender closes the engine
    }
}
