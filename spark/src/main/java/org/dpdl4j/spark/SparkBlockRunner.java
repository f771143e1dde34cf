package org.dpdl4j.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.dpdl4j.runtime.engine.BlockProgram;
import org.dpdl4j.runtime.engine.BlockRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blocks of one run on a Spark cluster. Block k is partition k of a cached RDD of block indices: the executor that
 * computed a partition keeps it, so Spark sends block k's tasks back there, where the block stays open
 * ({@link ExecutorBlocks}). Each plan is a broadcast of its own, fetched once by the executor that opens the block;
 * each round sends every block its input (the messages its parties receive) inside its task, or as a broadcast when it
 * is large ({@link Payload}), runs one job of one task per block, and collects what the blocks send back. A task lost with its executor is retried elsewhere by Spark and reopens its
 * block from the plan: rounds depend only on the plans and the inputs, so the retried round returns the same.
 */
final class SparkBlockRunner<P, W extends AutoCloseable, I, O> implements BlockRunner<I, O> {
    private static final Logger LOG = LoggerFactory.getLogger(SparkBlockRunner.class);
    /** The job property that names a job's round (for listeners: progress, tests). */
    static final String ROUND_PROPERTY = "dpdl4j.round";

    private final JavaSparkContext sc;
    private final String name;
    private final String run = UUID.randomUUID().toString();
    private final BlockProgram<P, W, I, O> program;
    private final List<Broadcast<P>> plans = new ArrayList<>();
    private final JavaRDD<Integer> slots;

    SparkBlockRunner(JavaSparkContext sc, String name, List<P> plans, BlockProgram<P, W, I, O> program) {
        this.sc = sc;
        this.name = name;
        this.program = program;
        for (P plan : plans) {
            this.plans.add(sc.broadcast(plan));
        }
        int blocks = plans.size();
        this.slots = sc.parallelize(IntStream.range(0, blocks).boxed().toList(), blocks).persist(StorageLevel.MEMORY_ONLY());
        // Place and open every block now, so that the first round's time is a round's.
        withDescription(name + ": opening " + blocks + " blocks", -1, () -> {
            List<Broadcast<P>> handles = this.plans;
            String id = run;
            BlockProgram<P, W, I, O> opens = program;
            slots.foreach(index -> ExecutorBlocks.get(id, index, () -> opens.open(handles.get(index).value())));
            return null;
        });
    }

    @Override
    public int blockCount() {
        return plans.size();
    }

    @Override
    public List<O> step(long round, List<I> inputs) {
        if (inputs.size() != plans.size()) {
            throw new IllegalArgumentException(inputs.size() + " inputs for " + plans.size() + " blocks");
        }
        List<Payload> sent = new ArrayList<>();
        for (I input : inputs) {
            sent.add(Payload.of(sc, (java.io.Serializable) input));
        }
        try {
            JavaRDD<Payload> payloads = sc.parallelize(sent, sent.size());
            return withDescription(name + ": round " + (round + 1), round,
                    () -> slots.zipPartitions(payloads, new BlockTask<>(run, program, round, plans)).collect());
        } finally {
            sent.forEach(Payload::release);
        }
    }

    private <T> T withDescription(String description, long round, java.util.function.Supplier<T> job) {
        sc.setJobDescription(description);
        sc.setLocalProperty(ROUND_PROPERTY, Long.toString(round));
        try {
            return job.get();
        } finally {
            sc.setJobDescription(null);
            sc.setLocalProperty(ROUND_PROPERTY, null);
        }
    }

    @Override
    public void close() {
        String id = run;
        try {
            if (!sc.sc().isStopped()) {
                withDescription(name + ": closing", -1, () -> {
                    slots.foreachPartition(it -> ExecutorBlocks.evict(id));
                    return null;
                });
                slots.unpersist(false);
                for (Broadcast<P> b : plans) {
                    b.destroy();
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("releasing the blocks of {} on the cluster failed ({}); they go when the application ends", name, e.toString());
        } finally {
            ExecutorBlocks.evict(id);   // in local mode the driver is the executor
        }
    }
}
