package org.dpdl4j.spark;

import java.io.Serializable;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.dpdl4j.runtime.engine.BlockEngine;
import org.dpdl4j.runtime.engine.BlockProgram;
import org.dpdl4j.runtime.engine.BlockRunner;

/**
 * Blocks of parties on a Spark cluster. {@link #connect} starts a Spark application of its own, which {@link #close()}
 * stops; {@link #on} uses a context the caller keeps (and stops).
 *
 * <pre>{@code
 * try (DecentralizedTrainer run = DecentralizedTrainer.builder()...build()) {
 *     run.distribute(SparkBlocks.connect(SparkSettings.master("spark://host:7077"), "my run"));
 *     run.runToEnd();
 * }
 * }</pre>
 */
public final class SparkBlocks implements BlockEngine {
    private final JavaSparkContext sc;
    private final boolean owned;
    private final Integer blocks;

    private SparkBlocks(JavaSparkContext sc, boolean owned, Integer blocks) {
        this.sc = sc;
        this.owned = owned;
        if (blocks != null && blocks < 1) {
            throw new IllegalArgumentException("at least 1 block, got " + blocks);
        }
        this.blocks = blocks;
    }

    /**
     * Blocks on a context the caller keeps running.
     *
     * @param blocks how many blocks to split the parties into, or null for one per core the cluster offers
     */
    public static SparkBlocks on(JavaSparkContext sc, Integer blocks) {
        return new SparkBlocks(sc, false, blocks);
    }

    /** Blocks on an application of their own on the cluster the settings name; closing them stops it. */
    public static SparkBlocks connect(SparkSettings settings, String purpose) {
        return new SparkBlocks(SparkConnection.open(settings, purpose), true, settings.blocks());
    }

    /** The context the blocks run in. */
    public JavaSparkContext context() {
        return sc;
    }

    /**
     * {@inheritDoc} One per core the cluster offers, at most one per party; the number asked for, which a run with fewer
     * parties refuses.
     *
     * @throws org.dpdl4j.runtime.options.InvalidOptionException when more blocks were asked for than there are parties
     */
    @Override
    public int blocksFor(int parties) {
        if (blocks == null) {
            return Math.max(1, Math.min(parties, sc.defaultParallelism()));
        }
        if (blocks > parties) {
            throw SparkOptions.BLOCKS.invalid("--blocks " + blocks + " asks for more blocks than this run has nodes ("
                    + parties + "): a block holds at least one node; give --blocks " + parties + " or fewer, or leave it out"
                    + " for one block per core");
        }
        return blocks;
    }

    @Override
    public <P extends Serializable, W extends AutoCloseable, I extends Serializable, O extends Serializable> BlockRunner<I, O> start(
            String name, List<P> plans, BlockProgram<P, W, I, O> program) {
        return new SparkBlockRunner<>(sc, name, plans, program);
    }

    @Override
    public String describe() {
        return "spark " + sc.master() + " (" + sc.defaultParallelism() + " cores)" + (blocks != null ? ", " + blocks + " blocks" : "");
    }

    @Override
    public void close() {
        if (owned) {
            sc.stop();
        }
    }
}
