package org.dpdl4j.spark;

import static org.dpdl4j.runtime.engine.PartyFixtures.assertBitwise;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
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
import org.dpdl4j.runtime.engine.BlockEngine;
import org.dpdl4j.runtime.engine.BlockProgram;
import org.dpdl4j.runtime.engine.BlockRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decor on a standalone Spark cluster of a master and two workers, child processes on loopback: one worker is killed
 * while a round's tasks run, and the run recovers (Spark retries the lost tasks on the other executor, which reopens
 * the lost blocks from their plans) with the very result of the local engine. The round's tasks wait at a gate until the
 * worker of the first task to arrive has been killed, so the loss falls inside the round however slow the machine is.
 */
class StandaloneClusterTest {
    private static final Logger LOG = LoggerFactory.getLogger(StandaloneClusterTest.class);
    private static final int NODES = 8;
    private static final int ROUNDS = 10;
    /** The 0-based round during which a worker is killed. */
    private static final int KILL_ROUND = 4;
    /** Only a guard against a hang: a loaded machine may take minutes to reach the gated round. */
    private static final Duration GATE_TIMEOUT = Duration.ofMinutes(10);

    @TempDir
    Path dir;

    @Test
    void aRunThatLosesAWorkerMidRoundRecoversWithTheLocalEnginesResult() throws Exception {
        Path gate = Files.createDirectories(dir.resolve("gate"));
        try (StandaloneCluster cluster = StandaloneCluster.start(dir.resolve("cluster"), 2, 1, "1g");
             DecentralizedTrainer reference = decor();
             DecentralizedTrainer run = decor()) {
            SparkBlocks blocks = SparkBlocks.connect(SparkSettings.master(cluster.masterUrl()).withBlocks(4)
                    .withProperties(cluster.executorProperties())
                    .withProperties(Map.of("spark.executor.memory", "768m", "spark.cores.max", "2")), "standalone-cluster-test");
            TaskCounter tasks = new TaskCounter();
            JavaSparkContext sc = blocks.context();
            sc.sc().addSparkListener(tasks);
            awaitExecutors(sc, 2);
            run.distribute(new GatedBlocks(blocks, KILL_ROUND, gate));
            reference.run(ROUNDS);   // before the killer starts waiting: its wait is for the gated run alone
            CompletableFuture<Integer> killed = CompletableFuture.supplyAsync(() -> killFirstArrival(cluster, gate));
            run.run(ROUNDS);
            int worker = killed.get(GATE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertEquals(ROUNDS, run.completedSteps());
            assertBitwise(reference.params(), run.params(), "node models after the lost worker");
            assertEquals(reference.ledger().orElseThrow().ledger(), run.ledger().orElseThrow().ledger());
            assertEquals(reference.epsilon(), run.epsilon());
            assertTrue(waitFor(() -> tasks.removed.get() >= 1), "the driver saw the executor go");
            assertTrue(waitFor(() -> tasks.failed.get() >= 1), "a task of round " + (KILL_ROUND + 1) + " was lost and retried");
            LOG.info("killed worker {} during round {}; executors removed: {}; tasks that failed and were retried: {}",
                    worker, KILL_ROUND + 1, tasks.removed.get(), tasks.failed.get());
            assertTrue(waitFor(() -> cluster.aliveWorkers() == 1), "one worker is left: " + cluster.aliveWorkers());
        }
    }

    /**
     * Waits for the first task of the gated round to arrive at the gate, kills the worker of its executor and opens the
     * gate; returns the worker killed. The gate opens whatever happens, so that a failure here ends the run at once.
     */
    private static int killFirstArrival(StandaloneCluster cluster, Path gate) {
        try {
            long pid = firstArrival(gate);
            int worker = cluster.workerOfProcess(pid);
            if (worker < 0) {
                throw new IllegalStateException("no worker runs the executor of process " + pid);
            }
            cluster.killWorker(worker);
            return worker;
        } finally {
            try {
                Files.writeString(gate.resolve(RoundGate.OPEN), "");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The process id of the first executor whose task arrived at the gate. */
    private static long firstArrival(Path gate) {
        long deadline = System.nanoTime() + GATE_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            try (Stream<Path> arrivals = Files.list(gate)) {
                Optional<Long> pid = arrivals.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(RoundGate.ARRIVED))
                        .map(n -> Long.parseLong(n.substring(RoundGate.ARRIVED.length()))).findFirst();
                if (pid.isPresent()) {
                    return pid.get();
                }
                Thread.sleep(20);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new IllegalStateException("no task of round " + (KILL_ROUND + 1) + " reached the gate in " + GATE_TIMEOUT);
    }

    /** Places blocks with another engine, their program wrapped in a {@link RoundGate}. */
    private record GatedBlocks(BlockEngine engine, long round, Path gate) implements BlockEngine {
        @Override
        public int blocksFor(int parties) {
            return engine.blocksFor(parties);
        }

        @Override
        public <P extends Serializable, W extends AutoCloseable, I extends Serializable, O extends Serializable> BlockRunner<I, O> start(
                String name, List<P> plans, BlockProgram<P, W, I, O> program) {
            return engine.start(name, plans, new RoundGate<>(program, round, gate.toString()));
        }

        @Override
        public String describe() {
            return engine.describe() + ", gated at round " + (round + 1);
        }

        @Override
        public void close() {
            engine.close();
        }
    }

    /**
     * A block program whose steps of one round, on an executor, first say they arrived (a file named after the executor's process)
     * and wait until the gate is open (a file), then step as the program they wrap.
     */
    private record RoundGate<P, W extends AutoCloseable, I, O>(BlockProgram<P, W, I, O> program, long round, String gate)
            implements BlockProgram<P, W, I, O> {
        static final String ARRIVED = "arrived-";
        static final String OPEN = "open";

        @Override
        public W open(P plan) {
            return program.open(plan);
        }

        @Override
        public O step(W worker, long stepRound, I input) {
            if (stepRound == round) {
                awaitOpen();
            }
            return program.step(worker, stepRound, input);
        }

        private void awaitOpen() {
            Path dir = Path.of(gate);
            Path open = dir.resolve(OPEN);
            long deadline = System.nanoTime() + GATE_TIMEOUT.toNanos();
            try {
                if (!Files.exists(open)) {
                    Files.writeString(dir.resolve(ARRIVED + ProcessHandle.current().pid()), "");
                }
                while (!Files.exists(open)) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the gate of round " + (round + 1) + " stayed shut for " + GATE_TIMEOUT);
                    }
                    Thread.sleep(20);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted at the gate", e);
            }
        }
    }

    /** Counts the executors the driver saw go and the tasks that failed (and were retried). */
    private static final class TaskCounter extends SparkListener {
        final AtomicInteger removed = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();

        @Override
        public void onTaskEnd(SparkListenerTaskEnd e) {
            if (!e.taskInfo().successful()) {
                failed.incrementAndGet();
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
