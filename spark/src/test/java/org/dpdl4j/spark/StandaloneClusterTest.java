package org.dpdl4j.spark;

import static org.dpdl4j.runtime.engine.PartyFixtures.assertBitwise;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.models.Architecture;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decor on a standalone Spark cluster of a master and two workers, child processes on loopback: one worker is killed
 * while a round's tasks run, and the run recovers (Spark retries the lost tasks on the other executor, which reopens
 * the lost blocks from their plans) with the very result of the local engine.
 */
class StandaloneClusterTest {
    private static final Logger LOG = LoggerFactory.getLogger(StandaloneClusterTest.class);
    private static final int NODES = 8;
    private static final int ROUNDS = 10;
    /** The 0-based round during which a worker is killed. */
    private static final int KILL_ROUND = 4;

    @TempDir
    Path dir;

    @Test
    void aRunThatLosesAWorkerMidRoundRecoversWithTheLocalEnginesResult() throws Exception {
        try (StandaloneCluster cluster = StandaloneCluster.start(dir, 2, 1, "1g");
             DecentralizedTrainer reference = decor();
             DecentralizedTrainer run = decor()) {
            SparkBlocks blocks = SparkBlocks.connect(SparkSettings.master(cluster.masterUrl()).withBlocks(4)
                    .withProperties(cluster.executorProperties())
                    .withProperties(Map.of("spark.executor.memory", "768m", "spark.cores.max", "2")), "standalone-cluster-test");
            WorkerKiller killer = new WorkerKiller(cluster);
            JavaSparkContext sc = blocks.context();
            sc.sc().addSparkListener(killer);
            awaitExecutors(sc, 2);
            run.distribute(blocks);
            reference.run(ROUNDS);
            run.run(ROUNDS);
            assertEquals(ROUNDS, run.completedSteps());
            assertBitwise(reference.params(), run.params(), "node models after the lost worker");
            assertEquals(reference.ledger().orElseThrow().ledger(), run.ledger().orElseThrow().ledger());
            assertEquals(reference.epsilon(), run.epsilon());
            LOG.info("killed worker {} during round {}; executors removed: {}; tasks that failed and were retried: {}",
                    killer.killedWorker, KILL_ROUND + 1, killer.removed.get(), killer.failedTasks.get());
            assertTrue(killer.killed.get(), "a worker was killed during round " + (KILL_ROUND + 1));
            assertTrue(waitFor(() -> killer.removed.get() >= 1), "the driver saw the executor go");
            assertEquals(1, cluster.aliveWorkers() , "one worker is left");
        }
    }

    /** Kills the worker of the executor that starts the first task of round {@link #KILL_ROUND}. */
    private static final class WorkerKiller extends SparkListener {
        private final StandaloneCluster cluster;
        private final Map<String, Integer> workerOfExecutor = new ConcurrentHashMap<>();
        private final AtomicBoolean armed = new AtomicBoolean();
        final AtomicBoolean killed = new AtomicBoolean();
        final AtomicInteger removed = new AtomicInteger();
        final AtomicInteger failedTasks = new AtomicInteger();
        volatile int killedWorker = -1;

        WorkerKiller(StandaloneCluster cluster) {
            this.cluster = cluster;
        }

        @Override
        public void onExecutorAdded(SparkListenerExecutorAdded e) {
            scala.Option<String> log = e.executorInfo().logUrlMap().get("stdout");
            workerOfExecutor.put(e.executorId(), log.isDefined() ? cluster.workerOfLogUrl(log.get()) : -1);
        }

        @Override
        public void onJobStart(SparkListenerJobStart e) {
            if (Integer.toString(KILL_ROUND).equals(e.properties().getProperty(SparkBlockRunner.ROUND_PROPERTY))) {
                armed.set(true);
            }
        }

        @Override
        public void onTaskStart(SparkListenerTaskStart e) {
            Integer worker = workerOfExecutor.get(e.taskInfo().executorId());
            if (worker != null && worker >= 0 && armed.compareAndSet(true, false)) {
                killedWorker = worker;
                cluster.killWorker(worker);
                killed.set(true);
            }
        }

        @Override
        public void onTaskEnd(SparkListenerTaskEnd e) {
            if (!e.taskInfo().successful()) {
                failedTasks.incrementAndGet();
            }
        }

        @Override
        public void onExecutorRemoved(SparkListenerExecutorRemoved e) {
            removed.incrementAndGet();
        }
    }

    private static DecentralizedTrainer decor() {
        return DecentralizedTrainer.builder().algorithm(DecentralizedAlgorithm.DECOR).model(model()).graph(Topologies.ring(NODES))
                .nodeData(data()).unit(ProtectedUnit.EXAMPLE).clip(1.0).batchSize(32).learningRate(new LearningRate.Constant(0.05))
                .rounds(ROUNDS).target(8.0, 1e-5).seed(17).noiseKind(NoiseKind.SEEDED).build();
    }

    /** A 196-128-10 MLP: rounds long enough that a worker dies while its tasks run. */
    private static MultiLayerNetwork model() {
        return ModelKind.MLP.network(196, 10, ModelOptions.defaults().withSeed(5),
                Architecture.defaults().withHiddenLayers(List.of(128), Activation.RELU));
    }

    private static List<NodeData> data() {
        Random random = new Random(23);
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            int m = 150 + 10 * i;
            float[] x = new float[m * 196];
            float[] y = new float[m * 10];
            for (int k = 0; k < m; k++) {
                int label = random.nextInt(10);
                y[k * 10 + label] = 1;
                for (int f = 0; f < 196; f++) {
                    x[k * 196 + f] = (float) (random.nextGaussian() * 0.5 + (f % 10 == label ? 1 : 0));
                }
            }
            out.add(new NodeData(Nd4j.createFromArray(x).reshape(m, 196), Nd4j.createFromArray(y).reshape(m, 10)));
        }
        return out;
    }

    private static void awaitExecutors(JavaSparkContext sc, int count) {
        assertTrue(waitFor(() -> sc.sc().statusTracker().getExecutorInfos().length >= count + 1),
                count + " executors registered (the driver is listed too)");
    }

    private static boolean waitFor(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
