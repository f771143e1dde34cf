package org.dpdl4j.spark;

import java.time.Duration;
import java.util.Map;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * Where a run's Spark application runs.
 *
 * @param master        the master URL: {@code local}, {@code local[N]}, {@code local[*]} or {@code spark://HOST:PORT}
 *                      (several masters comma-separated); null for the {@code spark.master} property (as spark-submit
 *                      sets it), else {@code local[*]}
 * @param blocks        how many blocks to split the parties into, or null for one per core the cluster offers
 * @param executorWait  how long to wait for a cluster's first executor before giving up
 * @param properties    Spark properties for the application, over those of the JVM's {@code spark.*} system properties
 */
public record SparkSettings(String master, Integer blocks, Duration executorWait, Map<String, String> properties) {
    /** The time a cluster has to give the application its first executor, by default. */
    public static final Duration DEFAULT_EXECUTOR_WAIT = Duration.ofSeconds(120);

    public SparkSettings {
        if (master != null) {
            master = SparkOptions.MASTER.parse(master);   // the option's own check: the forms dpdl4j can start
        }
        if (blocks != null && blocks < 1) {
            throw SparkOptions.BLOCKS.invalid("--blocks " + blocks + ": give at least 1 block");
        }
        if (executorWait == null || executorWait.isNegative() || executorWait.isZero()) {
            throw new IllegalArgumentException("the wait for executors must be positive, got " + executorWait);
        }
        properties = Map.copyOf(properties);
    }

    /** The given master, one block per core, the default wait. */
    public static SparkSettings master(String master) {
        return new SparkSettings(master, null, DEFAULT_EXECUTOR_WAIT, Map.of());
    }

    /** The settings of the engine options ({@code --master}, {@code --blocks}). */
    public static SparkSettings of(RunSettings settings) {
        return new SparkSettings(settings.get(SparkOptions.MASTER).orElse(null),
                settings.get(SparkOptions.BLOCKS).map(Long::intValue).orElse(null), DEFAULT_EXECUTOR_WAIT, Map.of());
    }

    /** The same with {@code k} blocks. */
    public SparkSettings withBlocks(int k) {
        return new SparkSettings(master, k, executorWait, properties);
    }

    /** The same with another wait for executors. */
    public SparkSettings withExecutorWait(Duration wait) {
        return new SparkSettings(master, blocks, wait, properties);
    }

    /** The same with these Spark properties added (e.g. {@code spark.executor.memory}). */
    public SparkSettings withProperties(Map<String, String> more) {
        Map<String, String> all = new java.util.HashMap<>(properties);
        all.putAll(more);
        return new SparkSettings(master, blocks, executorWait, all);
    }
}
