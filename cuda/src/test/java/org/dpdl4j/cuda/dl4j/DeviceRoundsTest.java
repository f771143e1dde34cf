package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cuda.engine.JavaBackend;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.optim.TestNetworks;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.protocol.decentralized.LocalObjective;
import org.dpdl4j.protocol.decentralized.RoundTap;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.LearningRate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A decentralized run with every node model on the engine (here its plain-Java reference backend, the arithmetic of
 * the CUDA kernels) equals the same seeded run on the CPU engine, round for round, to float rounding: D-SGD, Decor,
 * LDP and CDP, example level under Poisson sampling (padded batches) and user level on full batches, with weight decay,
 * with the nodes' data kept on the device (a round sends which rows make its batch) and without (the batch copied in);
 * an observer sees the same messages, and a run left to choose its device stays on the CPU where no GPU is.
 */
class DeviceRoundsTest {
    private static final int NODES = 6;
    private static final int[] SIZES = {10, 8, 3};
    private static final int ROUNDS = 4;
    private static final double TOLERANCE = 1e-5;

    static Stream<Arguments> runs() {
        List<Arguments> out = new ArrayList<>();
        for (boolean held : new boolean[]{true, false}) {
            for (DecentralizedAlgorithm a : DecentralizedAlgorithm.values()) {
                out.add(Arguments.of(a, ProtectedUnit.EXAMPLE, SamplingScheme.POISSON, held));
                if (a != DecentralizedAlgorithm.DSGD) {
                    out.add(Arguments.of(a, ProtectedUnit.USER, SamplingScheme.FULL_BATCH, held));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}, {1} level, {2}, data kept on the device: {3}")
    @MethodSource("runs")
    void everyRoundEqualsTheCpuEngines(DecentralizedAlgorithm algorithm, ProtectedUnit unit, SamplingScheme sampling,
                                       boolean dataOnDevice) {
        List<INDArray> cpuMessages = new ArrayList<>();
        List<INDArray> deviceMessages = new ArrayList<>();
        try (DecentralizedTrainer cpu = run(algorithm, unit, sampling);
             DecentralizedTrainer device = run(algorithm, unit, sampling)) {
            cpu.useDevice(ComputeDevice.CPU);
            assertNull(cpu.deviceDescription(), "the CPU run computes on the CPU");
            CudaNodeModels models = new CudaNodeModels(PerExampleGradients.of(device.template()).spec(), NODES,
                    new JavaBackend(), true);
            if (!dataOnDevice) {
                models.refuseToHoldData();   // batches gathered on the host and copied in, as where the data does not fit
            }
            device.useNodeModels(models);
            assertTrue(device.deviceDescription().contains(NODES + " node models"), device.deviceDescription());
            cpu.addObserver((RoundTap t) -> cpuMessages.add(t.halfStep().dup()));
            device.addObserver((RoundTap t) -> deviceMessages.add(t.halfStep().dup()));
            for (int r = 0; r < ROUNDS; r++) {
                String where = algorithm + ", " + unit + ", round " + r;
                stepBothAndCompare(cpu, device, where);
                NodeModelsReferenceTest.assertRelative(cpuMessages.get(r), deviceMessages.get(r), TOLERANCE,
                        "the observed messages, " + where);
            }
            INDArray moved = cpu.params().sub(cpu.template().params().castTo(DataType.FLOAT).reshape(1, -1));
            assertTrue(moved.norm2Number().doubleValue() > 1e-3, "the rounds moved the models");
        }
    }

    /**
     * With Philox streams the device draws every node's private row and every edge's pairwise row itself (nothing
     * copied in): the same values the CPU run draws from the same streams, so the rounds still agree.
     */
    @ParameterizedTest(name = "{0}, {1} level")
    @MethodSource("privateRuns")
    void philoxNoiseDrawnOnTheDeviceEqualsTheCpuRun(DecentralizedAlgorithm algorithm, ProtectedUnit unit,
                                                    SamplingScheme sampling) {
        try (DecentralizedTrainer cpu = run(algorithm, unit, sampling, NoiseKind.PHILOX);
             DecentralizedTrainer device = run(algorithm, unit, sampling, NoiseKind.PHILOX)) {
            cpu.useDevice(ComputeDevice.CPU);
            device.useNodeModels(new CudaNodeModels(PerExampleGradients.of(device.template()).spec(), NODES,
                    new JavaBackend(), true));
            for (int r = 0; r < ROUNDS; r++) {
                stepBothAndCompare(cpu, device, algorithm + ", " + unit + ", round " + r);
            }
            assertEquals("host engine", cpu.computedOn());
            assertTrue(device.computedOn().contains(NODES + " node models") && device.computedOn().contains("noise drawn"
                    + " there (Philox)"), device.computedOn());
        }
    }

    /** One round of each run; their node models and mean losses agree. */
    private static void stepBothAndCompare(DecentralizedTrainer cpu, DecentralizedTrainer device, String where) {
        cpu.step();
        device.step();
        NodeModelsReferenceTest.assertRelative(cpu.params(), device.params(), TOLERANCE, "node models, " + where);
        assertEquals(cpu.lastLoss(), device.lastLoss(), TOLERANCE * Math.abs(cpu.lastLoss()), "mean loss, " + where);
    }

    static Stream<Arguments> privateRuns() {
        return runs().filter(a -> a.get()[0] != DecentralizedAlgorithm.DSGD && (boolean) a.get()[3])
                .map(a -> Arguments.of(a.get()[0], a.get()[1], a.get()[2]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void aRunLeftToChooseStaysOnTheCpuWithoutAGpu(DecentralizedAlgorithm algorithm) {
        org.junit.jupiter.api.Assumptions.assumeFalse(new CudaDeviceEngine().report().usable(),
                "a GPU is usable here: auto takes it");
        try (DecentralizedTrainer run = run(algorithm, ProtectedUnit.EXAMPLE, SamplingScheme.POISSON)) {
            run.step();
            assertNull(run.deviceDescription(), "no GPU here: the rounds ran on the CPU");
        }
    }

    static Stream<DecentralizedAlgorithm> algorithms() {
        return Stream.of(DecentralizedAlgorithm.values());
    }

    private static DecentralizedTrainer run(DecentralizedAlgorithm algorithm, ProtectedUnit unit, SamplingScheme sampling) {
        return run(algorithm, unit, sampling, NoiseKind.SEEDED);
    }

    private static DecentralizedTrainer run(DecentralizedAlgorithm algorithm, ProtectedUnit unit, SamplingScheme sampling,
                                            NoiseKind noise) {
        MultiLayerNetwork net = EngineCases.network(Activation.TANH, Activation.SOFTMAX, LossFunction.MCXENT, SIZES);
        Graph graph = algorithm == DecentralizedAlgorithm.CDP ? Topologies.complete(NODES) : Topologies.ring(NODES);
        boolean user = unit == ProtectedUnit.USER;
        var builder = DecentralizedTrainer.builder().algorithm(algorithm).model(net).graph(graph).nodeData(data())
                .objective(user ? LocalObjective.SUM : LocalObjective.MEAN).batchSize(4).sampling(sampling)
                .learningRate(new LearningRate.Constant(0.2)).weightDecay(0.01).rounds(ROUNDS).noiseKind(noise)
                .seed(17);
        if (algorithm.isPrivate()) {
            builder.unit(unit).clip(user ? 0.5 : 1.0)
                    .noise(0.05, algorithm == DecentralizedAlgorithm.DECOR ? 0.3 : 0.0);
        }
        return builder.build();
    }

    /** Node i holds 7 + i examples of its own. */
    private static List<NodeData> data() {
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            int m = 7 + i;
            out.add(new NodeData(TestNetworks.features(DataType.FLOAT, 60 + i, m, SIZES[0]),
                    TestNetworks.oneHot(DataType.FLOAT, 80 + i, m, SIZES[2])));
        }
        return out;
    }
}
