package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cuda.engine.JavaBackend;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.optim.TestNetworks;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.privacy.noise.PhiloxNoiseStreams;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.federated.ClientSampling;
import org.dpdl4j.protocol.federated.FedAvgConfig;
import org.dpdl4j.protocol.federated.FedAvgTrainer;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.protocol.federated.UpdateWeighting;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FedAvg and its private variants with the participants' local steps, release and aggregation on the engine (its plain-Java reference backend, the arithmetic of the CUDA kernels) equal the same seeded run on the
 * CPU, round for round, to float rounding, and so do the messages an observer of the uplinks reads: FedAvg
 * and GOPA with everyone taking part (GOPA's pairwise noise cancels over all of them), DP-FedAvg local and central with
 * Poisson client sampling (a different number of participants every round), two local steps on batches of 3.
 */
class FedAvgDeviceRoundsTest {
    private static final int CLIENTS = 7;
    private static final int[] SIZES = {9, 6, 3};
    private static final int ROUNDS = 4;

    @ParameterizedTest(name = "{0}")
    @EnumSource(FedAvgVariant.class)
    void everyRoundEqualsTheCpuRun(FedAvgVariant variant) {
        compareWithTheCpuRun(variant, true);
    }

    /** Where the clients' data does not fit beside the models, each local step's batches are copied in. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = FedAvgVariant.class, names = {"FEDAVG", "DP_CENTRAL"})
    void everyRoundEqualsTheCpuRunWithTheBatchesCopiedIn(FedAvgVariant variant) {
        compareWithTheCpuRun(variant, false);
    }

    /**
     * GOPA with Philox streams: the device draws every party's private row and every edge's pairwise row itself, the
     * values the CPU run draws from the same streams.
     */
    @Test
    void gopaWithItsNoiseDrawnOnTheDeviceEqualsTheCpuRun() {
        String where = compareWithTheCpuRun(FedAvgVariant.GOPA, true, new PhiloxNoiseStreams(5));
        assertTrue(where.contains("release and aggregation; GOPA's noise drawn there (Philox)"), where);
    }

    /** Local DP-FedAvg with Philox streams: each sampled client's noise row drawn on the device. */
    @Test
    void localDpWithTheClientsNoiseDrawnOnTheDeviceEqualsTheCpuRun() {
        compareWithTheCpuRun(FedAvgVariant.DP_LOCAL, true, new PhiloxNoiseStreams(5));
    }

    private static void compareWithTheCpuRun(FedAvgVariant variant, boolean dataOnDevice) {
        String where = compareWithTheCpuRun(variant, dataOnDevice, new SeededNoiseStreams(5));
        assertFalse(where.contains("Philox"), "seeded streams: the host draws the noise; " + where);
    }

    /** Returns where the device run computed ({@code computedOn}). */
    private static String compareWithTheCpuRun(FedAvgVariant variant, boolean dataOnDevice, NoiseStreams clientStreams) {
        try (FedAvgTrainer cpu = run(variant, clientStreams); FedAvgTrainer device = run(variant, clientStreams)) {
            cpu.useDevice(ComputeDevice.CPU);
            assertNull(cpu.deviceDescription(), "the CPU run computes on the CPU");
            CudaNodeModels models = new CudaNodeModels(PerExampleGradients.of(device.template()).spec(), CLIENTS,
                    new JavaBackend(), true);
            if (!dataOnDevice) {
                models.refuseToHoldData();
            }
            device.useNodeModels(models);
            assertTrue(device.deviceDescription().contains(CLIENTS + " node models"), device.deviceDescription());
            for (int r = 0; r < ROUNDS; r++) {
                cpu.step();
                device.step();
                String where = variant + ", round " + r;
                NodeModelsReferenceTest.assertRelative(cpu.parameters(), device.parameters(), 1e-5, "global model, " + where);
                if (Double.isNaN(cpu.lastLoss())) {
                    assertTrue(Double.isNaN(device.lastLoss()), "no participant, no loss: " + where);
                } else {
                    assertEquals(cpu.lastLoss(), device.lastLoss(), 1e-5 * Math.abs(cpu.lastLoss()), "mean loss, " + where);
                    NodeModelsReferenceTest.assertRelative(cpu.lastMessages(), device.lastMessages(), 1e-5,
                            "what the uplinks carried, " + where);
                }
            }
            assertTrue(cpu.parameters().sub(cpu.template().params().castTo(DataType.FLOAT).reshape(cpu.parameters().shape()))
                    .norm2Number().doubleValue() > 1e-3, "the rounds moved the model");
            assertTrue(device.computedOn().contains("(local steps, release and aggregation"), device.computedOn());
            return device.computedOn();
        }
    }

    /**
     * A run on blocks of clients whose local training runs on a device each (the reference backend) equals the run in
     * one process on the CPU: global model, loss and uplinks, every round; each block opens its models with its index.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(FedAvgVariant.class)
    void blocksOfClientsOnDevicesEqualOneProcessOnTheCpu(FedAvgVariant variant) {
        ReferenceBlockDevices reference = new ReferenceBlockDevices("step");
        try (FedAvgTrainer one = run(variant); FedAvgTrainer split = run(variant)) {
            one.useDevice(ComputeDevice.CPU);
            split.distribute(new org.dpdl4j.runtime.engine.InProcessBlocks(3), reference);
            for (int r = 0; r < ROUNDS; r++) {
                one.step();
                split.step();
                String where = variant + ", round " + r;
                NodeModelsReferenceTest.assertRelative(one.parameters(), split.parameters(), 1e-5, "global model, " + where);
                if (!Double.isNaN(one.lastLoss())) {
                    assertEquals(one.lastLoss(), split.lastLoss(), 1e-5 * Math.abs(one.lastLoss()), "mean loss, " + where);
                    NodeModelsReferenceTest.assertRelative(one.lastMessages(), split.lastMessages(), 1e-5,
                            "what the uplinks carried, " + where);
                }
            }
            assertTrue(one.parameters().sub(one.template().params().castTo(DataType.FLOAT).reshape(one.parameters().shape()))
                    .norm2Number().doubleValue() > 1e-3, "the rounds moved the model");
            assertEquals(java.util.Set.of(0, 1, 2), reference.opened(), "each block opens its clients' models with its own"
                    + " index");
            assertTrue(reference.calls() >= ROUNDS * 2, "the blocks' local steps ran on their devices: " + reference.calls());
            assertTrue(split.computedOn().contains("local steps on the device its executor chose"), split.computedOn());
        }
    }

    /**
     * A run whose clients trained on this process's device goes on blocks halfway (its device freed; the global model is
     * on the host) and still equals the run in one process on the CPU.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = FedAvgVariant.class, names = {"DP_CENTRAL", "GOPA"})
    void aRunOnThisProcesssDeviceGoesOnBlocksHalfway(FedAvgVariant variant) {
        ReferenceBlockDevices reference = new ReferenceBlockDevices("step");
        try (FedAvgTrainer one = run(variant); FedAvgTrainer moved = run(variant)) {
            one.useDevice(ComputeDevice.CPU);
            moved.useNodeModels(new CudaNodeModels(PerExampleGradients.of(moved.template()).spec(), CLIENTS,
                    new JavaBackend(), true));
            for (int r = 0; r < ROUNDS; r++) {
                if (r == ROUNDS / 2) {
                    moved.distribute(new org.dpdl4j.runtime.engine.InProcessBlocks(3), reference);
                    assertNull(moved.deviceDescription(), "this process's device is freed");
                }
                one.step();
                moved.step();
                NodeModelsReferenceTest.assertRelative(one.parameters(), moved.parameters(), 1e-5, "global model, "
                        + variant + ", round " + r);
            }
            assertTrue(reference.calls() >= 2, "the later rounds ran on the blocks' devices: " + reference.calls());
        }
    }

    @Test
    void aRunLeftToChooseStaysOnTheCpuWithoutAGpu() {
        org.junit.jupiter.api.Assumptions.assumeFalse(new CudaDeviceEngine().report().usable(),
                "a GPU is usable here: auto takes it");
        try (FedAvgTrainer run = run(FedAvgVariant.DP_CENTRAL)) {
            run.step();
            assertNull(run.deviceDescription(), "no GPU here: the local steps ran on the CPU");
        }
    }

    private static FedAvgTrainer run(FedAvgVariant variant) {
        return run(variant, new SeededNoiseStreams(5));
    }

    private static FedAvgTrainer run(FedAvgVariant variant, NoiseStreams clientStreams) {
        MultiLayerNetwork net = EngineCases.network(Activation.TANH, Activation.SOFTMAX, LossFunction.MCXENT, SIZES);
        LearningRate rate = new LearningRate.Constant(0.3);
        FedAvgConfig cfg = variant == FedAvgVariant.FEDAVG
                ? FedAvgConfig.plain(ROUNDS, 2, 3, rate, new ClientSampling.Everyone(), UpdateWeighting.UNIFORM, 5)
                : new FedAvgConfig(variant, ROUNDS, 2, 3, rate, 1.0, variant == FedAvgVariant.GOPA
                        ? new ClientSampling.Everyone() : new ClientSampling.Poisson(0.6), UpdateWeighting.UNIFORM,
                        0.5, 0.05, variant == FedAvgVariant.GOPA ? 0.5 : 0.0, 5);
        return FedAvgTrainer.of(net, clients(), cfg, clientStreams, new SeededNoiseStreams(6),
                variant == FedAvgVariant.GOPA ? Topologies.randomKOut(CLIENTS, 2, 3) : null, PrivacyBudget.unlimited(1e-5));
    }

    /** Client i holds 4 + i examples of its own. */
    private static List<NodeData> clients() {
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            int m = 4 + i;
            out.add(new NodeData(TestNetworks.features(DataType.FLOAT, 200 + i, m, SIZES[0]),
                    TestNetworks.oneHot(DataType.FLOAT, 300 + i, m, SIZES[2])));
        }
        return out;
    }
}
