package org.dpdl4j.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction2;
import org.apache.spark.broadcast.Broadcast;
import org.dpdl4j.runtime.engine.BlockProgram;

/**
 * One round of the block of a partition: opens the block from its plan if this executor does not hold it, and steps
 * it with the round's input. The task carries a handle to the plans and its own block's input (or a handle to it).
 */
final class BlockTask<P, W extends AutoCloseable, I, O> implements FlatMapFunction2<Iterator<Integer>, Iterator<Payload>, O> {
    private static final long serialVersionUID = 1L;

    private final String run;
    private final BlockProgram<P, W, I, O> program;
    private final long round;
    private final List<Broadcast<P>> plans;

    BlockTask(String run, BlockProgram<P, W, I, O> program, long round, List<Broadcast<P>> plans) {
        this.run = run;
        this.program = program;
        this.round = round;
        this.plans = plans;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Iterator<O> call(Iterator<Integer> blocks, Iterator<Payload> inputs) {
        List<O> out = new ArrayList<>(1);
        while (blocks.hasNext()) {
            int index = blocks.next();
            I input = (I) inputs.next().value();
            W worker = ExecutorBlocks.get(run, index, () -> program.open(plans.get(index).value()));
            synchronized (worker) {
                out.add(program.step(worker, round, input));
            }
        }
        return out.iterator();
    }
}
