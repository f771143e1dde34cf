package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cuda.engine.JavaBackend;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.optim.TestNetworks;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.privacy.noise.PhiloxNoiseStreams;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.federated.Mu2Config;
import org.dpdl4j.protocol.federated.Mu2Privacy;
import org.dpdl4j.protocol.federated.Mu2Trainer;
import org.dpdl4j.protocol.federated.NoiseSchedule;
import org.dpdl4j.protocol.federated.ParameterBall;
import org.dpdl4j.protocol.federated.ServerTrust;
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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DP-mu^2-FL with the machines' round on the engine (its plain-Java reference backend, the arithmetic of the CUDA
 * kernels) equals the same seeded run on the CPU, round for round, to float rounding: the server's query point, the
 * mean loss, the largest increment norm and how many machines the safety clip scaled, the machines' estimates and what
 * they sent; with an untrusted server (each machine's noise copied in), a trusted one, and without noise or clip.
 */
class Mu2DeviceRoundsTest {
    private static final int MACHINES = 5;
    private static final int BATCH = 3;
    private static final int ROUNDS = 4;
    private static final int[] SIZES = {7, 5, 3};

    enum Variant {
        UNTRUSTED, TRUSTED, NO_NOISE_NO_CLIP,
        /** Untrusted, the machines' noise from Philox streams, drawn on the device. */
        UNTRUSTED_PHILOX
    }

    /** The samples of every round kept on the device: a round sends only which rows make it. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Variant.class)
    void everyRoundEqualsTheCpuRun(Variant variant) {
        compareWithTheCpuRun(variant, true);
    }

    /** Where the samples do not fit beside the machines' rows, each round's samples are copied in. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Variant.class, names = {"UNTRUSTED", "TRUSTED"})
    void everyRoundEqualsTheCpuRunWithTheSamplesCopiedIn(Variant variant) {
        compareWithTheCpuRun(variant, false);
    }

    private static void compareWithTheCpuRun(Variant variant, boolean samplesOnDevice) {
        long clippedRounds = 0;
        try (Mu2Trainer cpu = run(variant); Mu2Trainer device = run(variant)) {
            cpu.useDevice(ComputeDevice.CPU);
            assertNull(cpu.deviceDescription(), "the CPU run computes on the CPU");
            CudaNodeModels models = onReferenceBackend(device);
            if (!samplesOnDevice) {
                models.refuseToHoldData();
            }
            device.useNodeModels(models);
            assertEquals(samplesOnDevice, device.machines().holdsSamples(), "where the samples are");
            assertTrue(device.deviceDescription().contains(2 * MACHINES + " node models"), device.deviceDescription());
            for (int r = 0; r < ROUNDS; r++) {
                cpu.step();
                device.step();
                assertSameRound(cpu, device, variant + ", round " + r);
                clippedRounds += cpu.lastStep().clippedMachines() > 0 ? 1 : 0;
            }
        }
        if (variant != Variant.NO_NOISE_NO_CLIP) {
            assertTrue(clippedRounds > 0, "the safety clip scaled some increments");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Variant.class, names = {"UNTRUSTED", "UNTRUSTED_PHILOX"})
    void aRunMovedBetweenTheCpuAndTheDeviceMidwayEqualsTheCpuRun(Variant variant) {
        try (Mu2Trainer cpu = run(variant); Mu2Trainer moved = run(variant)) {
            cpu.useDevice(ComputeDevice.CPU);
            moved.useDevice(ComputeDevice.CPU);
            for (int r = 0; r < ROUNDS; r++) {
                if (r == 1) {
                    moved.useNodeModels(onReferenceBackend(moved));   // estimates and both query points go up
                } else if (r == 3) {
                    moved.useNodeModels(null);                        // and come back
                }
                cpu.step();
                moved.step();
                assertSameRound(cpu, moved, "round " + r);
            }
            assertNull(moved.deviceDescription(), "back on the CPU");
        }
    }

    @Test
    void nodeModelsOfAnotherSizeAreRefused() {
        try (Mu2Trainer run = run(Variant.TRUSTED)) {
            CudaNodeModels wrong = new CudaNodeModels(PerExampleGradients.of(run.template()).spec(), MACHINES,
                    new JavaBackend(), true);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> run.useNodeModels(wrong));
            assertTrue(e.getMessage().contains(2 * MACHINES + " rows"), e.getMessage());
            wrong.close();
        }
    }

    @Test
    void aRunLeftToChooseStaysOnTheCpuWithoutAGpu() {
        org.junit.jupiter.api.Assumptions.assumeFalse(new CudaDeviceEngine().report().usable(),
                "a GPU is usable here: auto takes it");
        try (Mu2Trainer run = run(Variant.UNTRUSTED)) {
            run.step();
            assertNull(run.deviceDescription(), "no GPU here: the machines ran on the CPU");
        }
    }

    private static CudaNodeModels onReferenceBackend(Mu2Trainer run) {
        return new CudaNodeModels(PerExampleGradients.of(run.template()).spec(), 2 * MACHINES, new JavaBackend(), true);
    }

    private static void assertSameRound(Mu2Trainer cpu, Mu2Trainer device, String where) {
        NodeModelsReferenceTest.assertRelative(cpu.parameters(), device.parameters(), 1e-5, "query point, " + where);
        assertEquals(cpu.lastLoss(), device.lastLoss(), 1e-5 * Math.abs(cpu.lastLoss()), "mean loss, " + where);
        assertEquals(cpu.lastStep().maxNormQ(), device.lastStep().maxNormQ(), 1e-5 * cpu.lastStep().maxNormQ(),
                "largest increment, " + where);
        assertEquals(cpu.lastStep().clippedMachines(), device.lastStep().clippedMachines(), "clipped machines, " + where);
        NodeModelsReferenceTest.assertRelative(cpu.machines().dhat(), device.machines().dhat(), 1e-5, "estimates, " + where);
        NodeModelsReferenceTest.assertRelative(cpu.lastMessages(), device.lastMessages(), 1e-5, "messages, " + where);
    }

    /**
     * A run on blocks of machines, each block on a device of its own (the reference backend), equals the run in one
     * process on the CPU, every round: the estimates go up to each block and come back every round.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Variant.class, names = {"UNTRUSTED", "TRUSTED", "UNTRUSTED_PHILOX"})
    void blocksOfMachinesOnDevicesEqualOneProcessOnTheCpu(Variant variant) {
        ReferenceBlockDevices reference = new ReferenceBlockDevices("accumulate");
        try (Mu2Trainer one = run(variant); Mu2Trainer split = run(variant)) {
            one.useDevice(ComputeDevice.CPU);
            split.distribute(new org.dpdl4j.runtime.engine.InProcessBlocks(3), reference);
            for (int r = 0; r < ROUNDS; r++) {
                one.step();
                split.step();
                assertSameRound(one, split, variant + ", round " + r);
            }
            assertEquals(java.util.Set.of(0, 1, 2), reference.opened(), "each block opens its models with its own index");
            assertEquals(3 * ROUNDS, reference.calls(), "every block's rounds ran on its device");
            assertTrue(split.computedOn().contains("each block on the device its executor chose"), split.computedOn());
        }
    }

    /**
     * A run whose machines ran on this process's device goes on blocks halfway: their estimates and query points come
     * back from the device first, and the run still equals the one in one process on the CPU.
     */
    @Test
    void aRunOnThisProcesssDeviceGoesOnBlocksHalfway() {
        ReferenceBlockDevices reference = new ReferenceBlockDevices("accumulate");
        try (Mu2Trainer one = run(Variant.UNTRUSTED); Mu2Trainer moved = run(Variant.UNTRUSTED)) {
            one.useDevice(ComputeDevice.CPU);
            moved.useNodeModels(onReferenceBackend(moved));
            for (int r = 0; r < ROUNDS; r++) {
                if (r == ROUNDS / 2) {
                    moved.distribute(new org.dpdl4j.runtime.engine.InProcessBlocks(3), reference);
                    assertNull(moved.deviceDescription(), "this process's device is freed");
                }
                one.step();
                moved.step();
                assertSameRound(one, moved, "round " + r);
            }
            assertEquals(3 * (ROUNDS - ROUNDS / 2), reference.calls(), "the later rounds ran on the blocks' devices");
        }
    }

    /**
     * A block reopened on a device (its executor lost) continues from the estimates the run sends it: they are copied up
     * to the device, where the block's sums live.
     */
    @Test
    void aBlockReopenedOnADeviceContinuesFromTheEstimatesItIsSent() {
        Mu2Config cfg = config(Variant.UNTRUSTED);
        List<org.dpdl4j.runtime.engine.Rows> xs = new ArrayList<>();
        List<org.dpdl4j.runtime.engine.Rows> ys = new ArrayList<>();
        for (NodeData d : machines()) {
            xs.add(org.dpdl4j.runtime.engine.Rows.of(d.features()));
            ys.add(org.dpdl4j.runtime.engine.Rows.of(d.labels()));
        }
        MultiLayerNetwork net = network();
        int[] members = java.util.stream.IntStream.range(0, MACHINES).toArray();
        org.dpdl4j.protocol.federated.Mu2BlockPlan plan = new org.dpdl4j.protocol.federated.Mu2BlockPlan(0, 0, MACHINES,
                net.getLayerWiseConfigurations().toJson(), cfg, xs, ys, new SeededNoiseStreams(5).restrictedTo(members,
                new int[0]), new ReferenceBlockDevices("accumulate"));
        var x1 = org.dpdl4j.runtime.engine.Rows.of(net.params());
        var x2 = org.dpdl4j.runtime.engine.Rows.of(net.params().mul(0.9));
        var zeros = org.dpdl4j.runtime.engine.Rows.of(org.nd4j.linalg.factory.Nd4j.zeros(DataType.FLOAT, MACHINES,
                x1.columns()));
        try (var kept = new org.dpdl4j.protocol.federated.Mu2Block(plan);
             var reopened = new org.dpdl4j.protocol.federated.Mu2Block(plan)) {
            var first = kept.step(1, new org.dpdl4j.protocol.federated.Mu2BlockInput(x1, x1, zeros));
            var second = kept.step(2, new org.dpdl4j.protocol.federated.Mu2BlockInput(x2, x1, first.dhat()));
            var again = reopened.step(2, new org.dpdl4j.protocol.federated.Mu2BlockInput(x2, x1, first.dhat()));
            NodeModelsReferenceTest.assertRelative(second.dhat().toArray(), again.dhat().toArray(), 1e-6, "estimates");
            NodeModelsReferenceTest.assertRelative(second.messages().toArray(), again.messages().toArray(), 1e-6,
                    "noisy messages");
        }
    }

    private static Mu2Trainer run(Variant variant) {
        Mu2Config cfg = config(variant);
        NoiseStreams streams = variant == Variant.UNTRUSTED_PHILOX ? new PhiloxNoiseStreams(5) : new SeededNoiseStreams(5);
        Mu2Privacy privacy = cfg.noise().isPrivate() ? Mu2Privacy.of(cfg.trust(), 0.6, MACHINES, cfg.noise(), 1e-5) : null;
        return Mu2Trainer.of(network(), machines(), cfg, streams, privacy, PrivacyBudget.unlimited(1e-5));
    }

    private static MultiLayerNetwork network() {
        return EngineCases.network(Activation.TANH, Activation.SOFTMAX, LossFunction.MCXENT, SIZES);
    }

    private static Mu2Config config(Variant variant) {
        boolean noisy = variant != Variant.NO_NOISE_NO_CLIP;
        ServerTrust trust = variant == Variant.TRUSTED ? ServerTrust.TRUSTED : ServerTrust.UNTRUSTED;
        // a clip of 0.3 on increments of norm about 1 scales most of them; sigma large enough to matter
        return new Mu2Config(trust, ROUNDS, BATCH, 0.2, noisy ? new ParameterBall(4.0) : ParameterBall.unbounded(),
                noisy ? 0.3 : Double.POSITIVE_INFINITY, noisy ? NoiseSchedule.constant(0.05) : NoiseSchedule.none(), 5);
    }

    /** Machine i holds the ROUNDS BATCH examples it uses once each, its own. */
    private static List<NodeData> machines() {
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < MACHINES; i++) {
            int m = ROUNDS * BATCH;
            out.add(new NodeData(TestNetworks.features(DataType.FLOAT, 400 + i, m, SIZES[0]),
                    TestNetworks.oneHot(DataType.FLOAT, 500 + i, m, SIZES[2])));
        }
        return out;
    }
}
