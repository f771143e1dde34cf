package org.dpdl4j.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cli.Converters;
import org.dpdl4j.cli.Converters.NoiseKindConverter;
import org.dpdl4j.cli.DataDirOption;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.engine.BlockProgram;
import org.dpdl4j.runtime.engine.BlockRunner;
import org.dpdl4j.spark.SparkBlocks;
import org.dpdl4j.spark.SparkSettings;
import org.dpdl4j.spark.StandaloneCluster;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Decor rounds of MNIST-MLP nodes on the Spark engine (a standalone cluster of one, two, four single-core executors on
 * this machine, one block per executor) against the local engine, and Spark's fixed cost per round: a round of blocks
 * that do nothing, which is what the engine adds to a round whatever the model.
 */
@Command(name = "spark-round", mixinStandardHelpOptions = true,
        description = "Decor round time on the Spark engine (1, 2, 4 executors of a standalone cluster on this machine) against the"
                + " local engine, for MNIST-MLP nodes on a ring (example level, Poisson batches of 64), and Spark's fixed cost per round.")
final class SparkRoundBench implements Callable<Integer> {
    @Option(converter = Converters.PositiveInt.class, names = "--nodes", split = ",", defaultValue = "16,256",
            description = "Node counts; default ${DEFAULT-VALUE}.")
    List<Integer> nodes;

    @Option(converter = Converters.PositiveInt.class, names = "--executors", split = ",", defaultValue = "1,2,4",
            description = "Executor counts (one core and one block each); default ${DEFAULT-VALUE}.")
    List<Integer> executors;

    @Option(converter = Converters.PositiveInt.class, names = "--rounds", defaultValue = "10",
            description = "Timed rounds per setting; default ${DEFAULT-VALUE}.")
    int rounds;

    @Option(converter = Converters.NonNegativeInt.class, names = "--warmup", defaultValue = "3",
            description = "Untimed rounds first; default ${DEFAULT-VALUE}.")
    int warmup;

    @Option(names = "--noise", defaultValue = "secure", converter = NoiseKindConverter.class,
            description = "secure (default: what a cluster deployment uses; every party draws only its own rows) or seeded.")
    NoiseKind noise;

    @Option(names = "--work-dir", description = "Where the cluster keeps its logs; default a new temporary directory.")
    Path workDir;

    @Mixin
    DataDirOption data;

    @Override
    public Integer call() throws IOException {
        LabeledData mnist = Datasets.mnist(data.resolve(), PixelScaling.STANDARDIZED).train();
        System.out.printf(Locale.ROOT, "MNIST MLP 784-128-10, Decor on a ring, Poisson batches of 64, %s noise, %d timed rounds after %d;"
                + " %d cores, OMP_NUM_THREADS=%s%n", noise.cliName(), rounds, warmup, Runtime.getRuntime().availableProcessors(),
                System.getenv().getOrDefault("OMP_NUM_THREADS", "unset"));
        double[] local = new double[nodes.size()];
        for (int k = 0; k < nodes.size(); k++) {
            try (DecentralizedTrainer run = decor(split(mnist, nodes.get(k)))) {
                local[k] = medianRoundMs(run);
            }
            System.out.printf(Locale.ROOT, "n=%d local engine: %.1f ms/round%n", nodes.get(k), local[k]);
        }
        List<String> table = new ArrayList<>();
        for (int e : executors) {
            Path dir = workDir != null ? Files.createDirectories(workDir.resolve("executors-" + e))
                    : Files.createTempDirectory("dpdl4j-spark-bench-");
            int largest = nodes.stream().mapToInt(n -> executorMb(n, e, mnist.size())).max().orElseThrow();
            try (StandaloneCluster cluster = StandaloneCluster.start(dir, 1, e, (e * 3 * largest) + "m")) {
                for (int k = 0; k < nodes.size(); k++) {
                    int n = nodes.get(k);
                    try (SparkBlocks engine = SparkBlocks.connect(SparkSettings.master(cluster.masterUrl()).withBlocks(e)
                            .withProperties(cluster.executorProperties()).withProperties(executorProperties(e, executorMb(n, e, mnist.size()))),
                            "dpdl4j bench spark-round");
                         DecentralizedTrainer run = decor(split(mnist, n))) {
                        awaitExecutors(engine, e);
                        double fixed = fixedCostMs(engine, e);
                        run.distribute(engine.lent());
                        double ms = medianRoundMs(run);
                        String row = String.format(Locale.ROOT, "n=%d executors=%d: %.1f ms/round, %.2fx the local engine (%.1f ms);"
                                + " Spark's fixed cost %.1f ms/round", n, e, ms, ms / local[k], local[k], fixed);
                        System.out.println(row);
                        table.add(row);
                    }
                }
            }
        }
        System.out.println();
        table.forEach(System.out::println);
        return 0;
    }

    /**
     * An executor's heap for n nodes on e executors: Spark's own 300 MB, room for a dozen copies of its block's
     * messages on the way in and out, five of its block's examples (the plan's bytes, the cached broadcast, the plan,
     * the block's arrays); twice that outside the heap for the nodes' arrays.
     */
    private static int executorMb(int n, int e, int examples) {
        double messages = Math.ceil((double) n / e) * 101_770 * 4 / 1e6;
        double data = (double) examples / e * 785 * 4 / 1e6;
        return (int) Math.max(1024, 300 + 12 * messages + 5 * data);
    }

    private static Map<String, String> executorProperties(int e, int heapMb) {
        return Map.of("spark.executor.cores", "1", "spark.cores.max", Integer.toString(e), "spark.executor.memory", heapMb + "m",
                "spark.driver.maxResultSize", "2g", "spark.executor.extraJavaOptions", "-Dorg.bytedeco.javacpp.maxbytes=" + 2 * heapMb
                        + "m -Dorg.bytedeco.javacpp.maxphysicalbytes=" + 4 * heapMb + "m");
    }

    /** The median round time after the warm-up. */
    private double medianRoundMs(DecentralizedTrainer run) {
        run.run(warmup);
        double[] ms = new double[rounds];
        for (int t = 0; t < rounds; t++) {
            long start = System.nanoTime();
            run.step();
            ms[t] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(ms);
        return ms[rounds / 2];
    }

    /** A round of blocks that do nothing: the job, the inputs and the outputs, without any work. */
    private double fixedCostMs(SparkBlocks engine, int blocks) {
        List<Integer> plans = IntStream.range(0, blocks).boxed().toList();
        try (BlockRunner<Integer, Integer> idle = engine.start("fixed cost", plans, new Idle())) {
            double[] ms = new double[3 * rounds];
            for (int t = 0; t < warmup + ms.length; t++) {
                long start = System.nanoTime();
                idle.step(t, plans);
                if (t >= warmup) {
                    ms[t - warmup] = (System.nanoTime() - start) / 1e6;
                }
            }
            Arrays.sort(ms);
            return ms[ms.length / 2];
        }
    }

    /** Blocks that return their input. */
    static final class Idle implements BlockProgram<Integer, AutoCloseable, Integer, Integer> {
        private static final long serialVersionUID = 1L;

        @Override
        public AutoCloseable open(Integer plan) {
            return () -> { };
        }

        @Override
        public Integer step(AutoCloseable worker, long round, Integer input) {
            return input;
        }
    }

    private DecentralizedTrainer decor(List<NodeData> parts) {
        MultiLayerNetwork net = ModelKind.MLP.network(784, 10, ModelOptions.defaults());
        return DecentralizedTrainer.builder().algorithm(DecentralizedAlgorithm.DECOR).model(net).graph(Topologies.ring(parts.size()))
                .nodeData(parts).unit(ProtectedUnit.EXAMPLE).clip(1.0).batchSize(64).learningRate(new LearningRate.Constant(0.01))
                .rounds(1_000_000).noise(1.0, 1.0).noiseKind(noise).seed(1).build();
    }

    /** MNIST's training images dealt round-robin to n nodes, labels one-hot. */
    private static List<NodeData> split(LabeledData mnist, int n) {
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int[] rows = IntStream.iterate(i, r -> r < mnist.size(), r -> r + n).toArray();
            LabeledData part = mnist.subset(rows);
            INDArray y = Nd4j.zeros(DataType.FLOAT, rows.length, 10);
            for (int r = 0; r < rows.length; r++) {
                y.putScalar(r, part.label(r), 1f);
            }
            out.add(new NodeData(part.features().castTo(DataType.FLOAT), y));
        }
        return out;
    }

    private static void awaitExecutors(SparkBlocks engine, int count) {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (engine.context().sc().statusTracker().getExecutorInfos().length < count + 1) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the cluster started fewer than " + count + " executors within 120 s");
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

}
