package org.dpdl4j.protocol.federated;

import static org.dpdl4j.runtime.engine.PartyFixtures.assertBitwise;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.engine.InProcessBlocks;
import org.dpdl4j.runtime.engine.PartyFixtures;
import org.junit.jupiter.api.Test;

/**
 * The clients of a FedAvg-family run split into blocks compute, round by round, exactly what one process computes with
 * the same seeded streams: the global model, the loss, what the server receives, and the ledger.
 */
class FedAvgBlocksTest {
    private static final int CLIENTS = 7;
    private static final int ROUNDS = 4;

    @Test
    void localDpFedAvgWithSampledClientsEqualsOneProcess() {
        assertSameRuns(new FedAvgConfig(FedAvgVariant.DP_LOCAL, ROUNDS, 2, 6, new LearningRate.Constant(0.2), 1.0,
                new ClientSampling.Poisson(0.6), UpdateWeighting.UNIFORM, 1.0, 0.8, 0.0, 3), 3);
    }

    @Test
    void everyClientsFullBatchesAreGatheredOnceAndLastAcrossRounds() {
        assertSameRuns(new FedAvgConfig(FedAvgVariant.DP_LOCAL, ROUNDS, 2, 0, new LearningRate.Constant(0.2), 1.0,
                new ClientSampling.Everyone(), UpdateWeighting.UNIFORM, 1.0, 0.8, 0.0, 3), 3);
    }

    @Test
    void centralDpFedAvgWithFullLocalBatchesEqualsOneProcess() {
        // Full local batches of unequal clients: every round is padded, to the widest participant of the round.
        assertSameRuns(new FedAvgConfig(FedAvgVariant.DP_CENTRAL, ROUNDS, 2, 0, new LearningRate.Constant(0.2), 1.0,
                new ClientSampling.FixedSize(5), UpdateWeighting.UNIFORM, 1.0, 0.8, 0.0, 4), 2);
    }

    @Test
    void fedAvgAndGopaEqualOneProcess() {
        assertSameRuns(FedAvgConfig.plain(ROUNDS, 2, 8, new LearningRate.Constant(0.2), new ClientSampling.Everyone(),
                UpdateWeighting.BY_DATA_SIZE, 5), 3);
        assertSameRuns(new FedAvgConfig(FedAvgVariant.GOPA, ROUNDS, 1, 8, new LearningRate.Constant(0.2), 1.0,
                new ClientSampling.Everyone(), UpdateWeighting.UNIFORM, 1.0, 0.5, 4.0, 6), 4);
    }

    private static void assertSameRuns(FedAvgConfig config, int blocks) {
        List<NodeData> clients = PartyFixtures.data(CLIENTS, 11);
        try (FedAvgTrainer one = run(config, clients); FedAvgTrainer split = run(config, clients)) {
            split.distribute(new InProcessBlocks(blocks));
            for (int t = 0; t < ROUNDS; t++) {
                one.step();
                split.step();
                String what = config.variant().cliName() + ", " + blocks + " blocks, round " + t;
                assertEquals(Double.doubleToLongBits(one.lastLoss()), Double.doubleToLongBits(split.lastLoss()), what + ": loss");
                assertBitwise(one.lastMessages(), split.lastMessages(), what + ": messages");
                assertBitwise(one.parameters(), split.parameters(), what + ": global model");
            }
            boolean isPrivate = config.variant().isPrivate();
            assertEquals(isPrivate, one.ledger().isPresent(), "a private run keeps a ledger, a non-private one none");
            assertEquals(isPrivate, split.ledger().isPresent());
            if (isPrivate) {
                assertEquals(one.ledger().get().ledger(), split.ledger().get().ledger());
            }
        }
    }

    private static FedAvgTrainer run(FedAvgConfig config, List<NodeData> clients) {
        return FedAvgTrainer.of(PartyFixtures.mlp(), clients, config, new SeededNoiseStreams(config.seed()),
                new SeededNoiseStreams(config.seed() + 1),
                config.variant() == FedAvgVariant.GOPA ? Topologies.randomKOut(clients.size(), 2, 3) : null,
                PrivacyBudget.unlimited(1e-5));
    }
}
