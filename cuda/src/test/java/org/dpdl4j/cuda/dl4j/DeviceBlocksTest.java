package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cuda.engine.JavaBackend;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.optim.BlockDevice;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.TestNetworks;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.protocol.decentralized.LocalObjective;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.engine.InProcessBlocks;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A decentralized run split into blocks of nodes, each block computing on a device of its own (here the engine's
 * plain-Java reference backend, the arithmetic of the CUDA kernels), equals the same seeded run in one process on the
 * CPU, round for round, to float rounding (the FedAvg family's and µ²'s blocks: {@link FedAvgDeviceRoundsTest},
 * {@link Mu2DeviceRoundsTest}).
 */
class DeviceBlocksTest {
    private static final int NODES = 7;
    private static final int[] SIZES = {10, 8, 3};
    private static final int ROUNDS = 4;

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = DecentralizedAlgorithm.class, names = {"DSGD", "DECOR", "CDP"})
    void blocksOnDevicesEqualOneProcessOnTheCpu(DecentralizedAlgorithm algorithm) {
        compareBlocksWithOneProcess(algorithm, NoiseKind.SEEDED);
    }

    /** With Philox streams each block draws its nodes' private rows and its edges' pairwise rows on its device. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = DecentralizedAlgorithm.class, names = {"DECOR", "LDP"})
    void blocksDrawingTheirNoiseOnDevicesEqualOneProcessOnTheCpu(DecentralizedAlgorithm algorithm) {
        compareBlocksWithOneProcess(algorithm, NoiseKind.PHILOX);
    }

    private static void compareBlocksWithOneProcess(DecentralizedAlgorithm algorithm, NoiseKind noise) {
        java.util.Set<Integer> opened = java.util.concurrent.ConcurrentHashMap.newKeySet();
        BlockDevice reference = (spec, nodes, block) -> {
            opened.add(block);
            return new CudaNodeModels(spec, nodes, new JavaBackend(), true);
        };
        try (DecentralizedTrainer one = run(algorithm, noise); DecentralizedTrainer split = run(algorithm, noise)) {
            one.useDevice(ComputeDevice.CPU);
            split.distribute(new InProcessBlocks(3), reference);
            for (int r = 0; r < ROUNDS; r++) {
                one.step();
                split.step();
                String where = algorithm + ", round " + r;
                NodeModelsReferenceTest.assertRelative(one.params(), split.params(), 1e-5, "node models, " + where);
                assertEquals(one.lastLoss(), split.lastLoss(), 1e-5 * Math.abs(one.lastLoss()), "mean loss, " + where);
            }
            assertTrue(one.params().sub(one.template().params().castTo(DataType.FLOAT).reshape(1, -1))
                    .norm2Number().doubleValue() > 1e-3, "the rounds moved the models");
            assertEquals(java.util.Set.of(0, 1, 2), opened, "each block opens its models with its own index");
        }
    }

    private static DecentralizedTrainer run(DecentralizedAlgorithm algorithm, NoiseKind noise) {
        MultiLayerNetwork net = EngineCases.network(Activation.TANH, Activation.SOFTMAX, LossFunction.MCXENT, SIZES);
        Graph graph = algorithm == DecentralizedAlgorithm.CDP ? Topologies.complete(NODES) : Topologies.ring(NODES);
        boolean user = algorithm == DecentralizedAlgorithm.CDP;
        var builder = DecentralizedTrainer.builder().algorithm(algorithm).model(net).graph(graph).nodeData(data())
                .objective(user ? LocalObjective.SUM : LocalObjective.MEAN).batchSize(4)
                .sampling(user ? SamplingScheme.FULL_BATCH : SamplingScheme.POISSON)
                .learningRate(new LearningRate.Constant(0.2)).weightDecay(0.01).rounds(ROUNDS).noiseKind(noise)
                .seed(23);
        if (algorithm.isPrivate()) {
            builder.unit(user ? ProtectedUnit.USER : ProtectedUnit.EXAMPLE).clip(user ? 0.5 : 1.0)
                    .noise(0.05, algorithm == DecentralizedAlgorithm.DECOR ? 0.3 : 0.0);
        }
        return builder.build();
    }

    /** Node i holds 6 + i examples of its own. */
    private static List<NodeData> data() {
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            int m = 6 + i;
            out.add(new NodeData(TestNetworks.features(DataType.FLOAT, 90 + i, m, SIZES[0]),
                    TestNetworks.oneHot(DataType.FLOAT, 110 + i, m, SIZES[2])));
        }
        return out;
    }
}
