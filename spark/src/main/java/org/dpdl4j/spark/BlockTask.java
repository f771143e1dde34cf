package org.dpdl4j.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.dpdl4j.runtime.engine.BlockProgram;

/**
 * One round of the blocks of a partition (one block each): opens the block from its plan if this executor does not
 * hold it, and steps it with the round's input. The task carries only handles to the plans and inputs; the executor
 * fetches the ones of its own blocks.
 */
final class BlockTask<P, W extends AutoCloseable, I, O> implements FlatMapFunction<Iterator<Integer>, O> {
    private static final long serialVersionUID = 1L;

    private final String run;
    private final BlockProgram<P, W, I, O> program;
    private final long round;
    private final List<Broadcast<P>> plans;
    private final List<Broadcast<I>> inputs;

    BlockTask(String run, BlockProgram<P, W, I, O> program, long round, List<Broadcast<P>> plans, List<Broadcast<I>> inputs) {
        this.run = run;
        this.program = program;
        this.round = round;
        this.plans = plans;
        this.inputs = inputs;
    }

    @Override
    public Iterator<O> call(Iterator<Integer> blocks) {
        List<O> out = new ArrayList<>(1);
        while (blocks.hasNext()) {
            int index = blocks.next();
            W worker = ExecutorBlocks.get(run, index, () -> program.open(plans.get(index).value()));
            synchronized (worker) {
                out.add(program.step(worker, round, inputs.get(index).value()));
            }
        }
        return out.iterator();
    }
}
