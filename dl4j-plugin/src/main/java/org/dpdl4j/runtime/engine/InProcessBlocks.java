package org.dpdl4j.runtime.engine;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Blocks run in this JVM, one after the other: what a cluster engine must reproduce, and the reference its tests
 * compare with. Plans and inputs are used as given (no serialization).
 */
public final class InProcessBlocks implements BlockEngine {
    private final int blocks;

    /** @param blocks how many blocks to split the parties into (fewer when there are fewer parties) */
    public InProcessBlocks(int blocks) {
        if (blocks < 1) {
            throw new IllegalArgumentException("at least 1 block, got " + blocks);
        }
        this.blocks = blocks;
    }

    @Override
    public int blocksFor(int parties) {
        return Math.min(blocks, parties);
    }

    @Override
    public <P extends Serializable, W extends AutoCloseable, I extends Serializable, O extends Serializable> BlockRunner<I, O> start(
            String name, List<P> plans, BlockProgram<P, W, I, O> program) {
        List<W> workers = new ArrayList<>();
        for (P plan : plans) {
            workers.add(program.open(plan));
        }
        return new BlockRunner<>() {
            @Override
            public int blockCount() {
                return workers.size();
            }

            @Override
            public List<O> step(long round, List<I> inputs) {
                if (inputs.size() != workers.size()) {
                    throw new IllegalArgumentException(inputs.size() + " inputs for " + workers.size() + " blocks");
                }
                List<O> out = new ArrayList<>();
                for (int k = 0; k < workers.size(); k++) {
                    out.add(program.step(workers.get(k), round, inputs.get(k)));
                }
                return out;
            }

            @Override
            public void close() {
                for (W w : workers) {
                    try {
                        w.close();
                    } catch (Exception e) {
                        throw new IllegalStateException("closing a block of " + name + " failed: " + e.getMessage(), e);
                    }
                }
            }
        };
    }

    @Override
    public String describe() {
        return "in process, " + blocks + " block" + (blocks == 1 ? "" : "s");
    }

    @Override
    public void close() {
    }
}
