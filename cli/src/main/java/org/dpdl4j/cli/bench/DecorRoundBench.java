package org.dpdl4j.cli.bench;

import org.dpdl4j.cli.Converters;

import org.dpdl4j.experiments.bench.PairedTiming;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.graph.TopologySpec;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.cli.Converters.NoiseKindConverter;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedConfig;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.protocol.decentralized.DecorCompatibility;
import org.dpdl4j.protocol.decentralized.LocalObjective;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpdl4j.optim.ComputeDevice;
import java.util.concurrent.Callable;

/**
 * One Decor round against one D-SGD round (same nodes, model, batches), and how the round time grows
 * with the number of nodes.
 */
@Command(name = "decor-round", mixinStandardHelpOptions = true,
        description = "Decor round over D-SGD round for MNIST-MLP nodes (example-level, Poisson batches of 64), and scaling in n.")
final class DecorRoundBench implements Callable<Integer> {
    @Option(converter = Converters.PositiveInt.class, names = "--nodes", split = ",", defaultValue = "16,64", description = "Node counts; the first is the Decor/D-SGD comparison; default ${DEFAULT-VALUE}.")
    List<Integer> nodes;

    @Option(names = "--topology", defaultValue = "ring", description = "Topology; default ${DEFAULT-VALUE}.")
    String topology;

    @Option(names = "--noise", defaultValue = "seeded", converter = NoiseKindConverter.class,
            description = "seeded (default), secure or philox noise streams (philox: drawn on the GPU with --device cuda or cuda:N).")
    NoiseKind noise;

    @Option(names = "--device", defaultValue = "cpu", description = "Where the rounds run: cpu (default; the CPU engine),"
            + " cuda (every node model on the GPU: dpdl4j's CUDA engine, refused saying what is missing when it cannot run"
            + " here), cuda:N (on GPU N) or auto.")
    String device;

    @Option(converter = Converters.PositiveInt.class, names = "--blocks", defaultValue = "7", description = "Interleaved blocks; default ${DEFAULT-VALUE}.")
    int blocks;

    @Option(converter = Converters.NonNegativeInt.class, names = "--warmup", defaultValue = "20", description = "Untimed rounds of each kind first, at least (the JDK's AES-CTR "
            + "intrinsic only runs in fully compiled code); the warm-up then goes on until the JIT compilers are nearly idle; "
            + "default ${DEFAULT-VALUE}.")
    int warmup;

    @Option(converter = Converters.PositiveInt.class, names = "--rounds-per-block", defaultValue = "5", description = "Rounds per block; default ${DEFAULT-VALUE}.")
    int perBlock;

    @Override
    public Integer call() {
        ComputeDevice where = ComputeDevice.parse(device);
        System.out.printf("topology=%s noise=%s device=%s OMP_NUM_THREADS=%s%n", topology, noise, where.label(),
                System.getenv().getOrDefault("OMP_NUM_THREADS", "unset"));
        int firstN = nodes.get(0);
        List<NodeData> firstData = randomNodes(firstN, 1000);
        try (DecentralizedTrainer dsgdFirst = trainer(firstN, firstData, DecentralizedAlgorithm.DSGD);
             DecentralizedTrainer decorFirst = trainer(firstN, firstData, DecentralizedAlgorithm.DECOR)) {
            PairedTiming.Result first = PairedTiming.measure("dsgd-round", dsgdFirst::step, "decor-round", decorFirst::step, warmup, blocks,
                    perBlock);
            System.out.printf(Locale.ROOT, "n=%d: %s%n", firstN, first.format());
            System.out.printf(Locale.ROOT, "decor_over_dsgd=%.3f%n", first.ratio());
            for (int n : nodes.subList(1, nodes.size())) {
                List<NodeData> data = randomNodes(n, 1000);
                try (DecentralizedTrainer dsgd = trainer(n, data, DecentralizedAlgorithm.DSGD);
                     DecentralizedTrainer decor = trainer(n, data, DecentralizedAlgorithm.DECOR)) {
                    PairedTiming.Result r = PairedTiming.measure("dsgd-round", dsgd::step, "decor-round", decor::step, warmup, blocks, perBlock);
                    System.out.printf(Locale.ROOT, "n=%d: %s%n", n, r.format());
                    // Each size is timed in its own phase: interleaving the sizes would let one trainer's look-ahead
                    // draw (several rounds' worth of the other) run into the other's timed blocks.
                    System.out.printf(Locale.ROOT, "round time n=%d over n=%d: %.3f (linear would be %.3f; D-SGD: %.3f)%n", n, firstN,
                            r.msB() / first.msB(), (double) n / firstN, r.msA() / first.msA());
                }
            }
        }
        return 0;
    }

    private DecentralizedTrainer trainer(int n, List<NodeData> data, DecentralizedAlgorithm algo) {
        return trainer(TopologySpec.resolve(topology, Integer.toString(n), 1), data, algo);
    }

    private DecentralizedTrainer trainer(Graph g, List<NodeData> data, DecentralizedAlgorithm algo) {
        MultiLayerNetwork net = ModelKind.MLP.network(784, 10, ModelOptions.defaults());
        boolean priv = algo.isPrivate();
        DecentralizedConfig cfg = new DecentralizedConfig(algo, ProtectedUnit.EXAMPLE, LocalObjective.MEAN, 1.0, priv ? 1.0 : 0.0,
                algo == DecentralizedAlgorithm.DECOR ? 1.0 : 0.0, new LearningRate.Constant(0.01), 1e-5, 64, SamplingScheme.POISSON,
                1_000_000, 1, DecorCompatibility.NONE);
        NoiseStreams streams = noise.streams(g, 1);
        DecentralizedTrainer t = DecentralizedTrainer.builder().model(net).graph(g).mixing(MixingMatrix.metropolisHastings(g))
                .nodeData(data).config(cfg).streams(streams).build();
        try {
            t.useDevice(ComputeDevice.parse(device));
        } catch (RuntimeException e) {
            t.close();
            throw e;
        }
        if (algo == DecentralizedAlgorithm.DSGD) {
            System.out.printf("n=%d rounds on %s%n", g.vertexCount(), t.deviceDescription() == null ? "the CPU" : t.deviceDescription());
        }
        return t;
    }

    private static List<NodeData> randomNodes(int n, int perNode) {
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            INDArray x = Nd4j.rand(DataType.FLOAT, perNode, 784);
            INDArray y = Nd4j.zeros(DataType.FLOAT, perNode, 10);
            for (int j = 0; j < perNode; j++) {
                y.putScalar(j, (i + j) % 10, 1.0);
            }
            out.add(new NodeData(x, y));
        }
        return out;
    }
}
