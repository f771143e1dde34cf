package org.dpdl4j.protocol.federated;

import static org.dpdl4j.runtime.engine.PartyFixtures.assertBitwise;
import static org.dpdl4j.runtime.engine.PartyFixtures.assertClose;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.engine.InProcessBlocks;
import org.dpdl4j.runtime.engine.PartyFixtures;
import org.dpdl4j.runtime.engine.Rows;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The machines of a (DP-)mu^2-FL run split into blocks compute, round by round, what one process computes with the same
 * seeded streams: the iterates, what the server receives, the machines' estimates and the loss within 1e-6 relative,
 * the ledger exactly; one block bit for bit. Not bit for bit across blocks because the increment's
 * {@code - (alpha_{t-1} / alpha_t) grad(x_{t-1})} is one BLAS axpy over all of the machines' rows: the kernel rounds its
 * vector body and its last few elements differently, and which elements fall in the tail depends on how many rows the
 * call covers (the first difference appears at t = 3, the first inexact ratio 2/3, in a row's last coordinates).
 */
class Mu2BlocksTest {
    private static final int MACHINES = 7;
    private static final int ROUNDS = 5;
    private static final double CLIP = 0.5;

    @Test
    void untrustedServerMachinesAddTheirOwnNoiseOnTheirBlocks() {
        assertSameRuns(config(ServerTrust.UNTRUSTED, NoiseSchedule.constant(0.3), 3), 3);
    }

    @Test
    void trustedServerAddsTheNoiseWhereTheRunIs() {
        assertSameRuns(config(ServerTrust.TRUSTED, NoiseSchedule.constant(0.3), 4), 2);
    }

    @Test
    void nonPrivateMu2SgdEqualsOneProcessWithOneMachinePerBlock() {
        assertSameRuns(new Mu2Config(ServerTrust.UNTRUSTED, ROUNDS, 4, 0.2, ParameterBall.unbounded(), Double.POSITIVE_INFINITY,
                NoiseSchedule.none(), 5), MACHINES);
    }

    @Test
    void oneBlockOfEveryMachineIsOneProcessBitForBit() {
        Mu2Config cfg = config(ServerTrust.UNTRUSTED, NoiseSchedule.constant(0.3), 8);
        List<NodeData> data = PartyFixtures.data(MACHINES, 11);
        try (Mu2Trainer one = run(cfg, data); Mu2Trainer split = run(cfg, data)) {
            split.distribute(new InProcessBlocks(1));
            for (int t = 0; t < ROUNDS; t++) {
                one.step();
                split.step();
                assertEquals(Double.doubleToLongBits(one.lastLoss()), Double.doubleToLongBits(split.lastLoss()), "loss");
                assertBitwise(one.lastMessages(), split.lastMessages(), "round " + (t + 1) + ": what the server received");
                assertBitwise(one.parameters(), split.parameters(), "round " + (t + 1) + ": query point");
            }
        }
    }

    @Test
    void aBlockReopenedFromItsPlanContinuesFromTheEstimatesItIsSent() {
        Mu2Config cfg = config(ServerTrust.UNTRUSTED, NoiseSchedule.constant(0.3), 6);
        List<NodeData> data = PartyFixtures.data(3, 12);
        List<Rows> xs = new ArrayList<>();
        List<Rows> ys = new ArrayList<>();
        for (NodeData d : data) {
            xs.add(Rows.of(d.features().get(org.nd4j.linalg.indexing.NDArrayIndex.interval(0, ROUNDS * 4L),
                    org.nd4j.linalg.indexing.NDArrayIndex.all())));
            ys.add(Rows.of(d.labels().get(org.nd4j.linalg.indexing.NDArrayIndex.interval(0, ROUNDS * 4L),
                    org.nd4j.linalg.indexing.NDArrayIndex.all())));
        }
        Mu2BlockPlan plan = new Mu2BlockPlan(1, 2, 3, PartyFixtures.mlp().getLayerWiseConfigurations().toJson(), cfg, xs, ys,
                new SeededNoiseStreams(6).restrictedTo(new int[]{2, 3, 4}, new int[0]),
                org.dpdl4j.optim.BlockDevice.of(org.dpdl4j.optim.ComputeDevice.CPU));
        Rows x1 = Rows.of(PartyFixtures.mlp().params());
        Rows x2 = Rows.of(PartyFixtures.mlp().params().mul(0.9));
        Rows zeros = Rows.of(org.nd4j.linalg.factory.Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.FLOAT, 3, x1.columns()));
        try (Mu2Block kept = new Mu2Block(plan); Mu2Block reopened = new Mu2Block(plan)) {
            Mu2BlockOutput first = kept.step(1, new Mu2BlockInput(x1, x1, zeros));
            Mu2BlockOutput second = kept.step(2, new Mu2BlockInput(x2, x1, first.dhat()));
            Mu2BlockOutput again = reopened.step(2, new Mu2BlockInput(x2, x1, first.dhat()));
            assertBitwise(second.dhat().toArray(), again.dhat().toArray(), "estimates");
            assertBitwise(second.messages().toArray(), again.messages().toArray(), "noisy messages");
            assertBitwise(second.lossSums().toArray(), again.lossSums().toArray(), "losses");
        }
    }

    private static Mu2Config config(ServerTrust trust, NoiseSchedule noise, long seed) {
        return new Mu2Config(trust, ROUNDS, 4, 0.2, new ParameterBall(20), CLIP, noise, seed);
    }

    private static void assertSameRuns(Mu2Config cfg, int blocks) {
        List<NodeData> data = PartyFixtures.data(MACHINES, 11);
        try (Mu2Trainer one = run(cfg, data); Mu2Trainer split = run(cfg, data)) {
            split.distribute(new InProcessBlocks(blocks));
            for (int t = 0; t < ROUNDS; t++) {
                one.step();
                split.step();
                String what = cfg.algorithmName() + ", " + blocks + " blocks, round " + (t + 1);
                assertEquals(one.lastLoss(), split.lastLoss(), 1e-6 * Math.abs(one.lastLoss()), what + ": loss");
                assertEquals(one.lastStep().clippedMachines(), split.lastStep().clippedMachines(), what + ": clipped machines");
                assertEquals(one.lastStep().maxNormQ(), split.lastStep().maxNormQ(), 1e-6 * one.lastStep().maxNormQ(),
                        what + ": largest increment");
                assertClose(one.lastMessages(), split.lastMessages(), 1e-6, what + ": what the server received");
                assertClose(one.machines().dhat(), split.machines().dhat(), 1e-6, what + ": the machines' estimates");
                assertClose(one.parameters(), split.parameters(), 1e-6, what + ": query point");
            }
            if (cfg.noise().isPrivate()) {
                assertEquals(one.ledger().orElseThrow().ledger(), split.ledger().orElseThrow().ledger());
                assertEquals(one.epsilon(), split.epsilon());
            }
        }
    }

    private static Mu2Trainer run(Mu2Config cfg, List<NodeData> data) {
        Mu2Privacy privacy = cfg.noise().isPrivate() ? Mu2Privacy.of(cfg.trust(), CLIP, data.size(), cfg.noise(), 1e-5) : null;
        return Mu2Trainer.of(PartyFixtures.mlp(), data, cfg, new SeededNoiseStreams(cfg.seed()), privacy,
                PrivacyBudget.unlimited(1e-5));
    }
}
