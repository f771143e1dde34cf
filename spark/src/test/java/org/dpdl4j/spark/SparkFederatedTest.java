package org.dpdl4j.spark;

import static org.dpdl4j.runtime.engine.PartyFixtures.assertBitwise;
import static org.dpdl4j.runtime.engine.PartyFixtures.assertClose;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.federated.ClientSampling;
import org.dpdl4j.protocol.federated.FedAvgConfig;
import org.dpdl4j.protocol.federated.FedAvgTrainer;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.protocol.federated.Mu2Config;
import org.dpdl4j.protocol.federated.Mu2Privacy;
import org.dpdl4j.protocol.federated.Mu2Trainer;
import org.dpdl4j.protocol.federated.NoiseSchedule;
import org.dpdl4j.protocol.federated.ParameterBall;
import org.dpdl4j.protocol.federated.ServerTrust;
import org.dpdl4j.protocol.federated.UpdateWeighting;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.engine.PartyFixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DP-FedAvg and GOPA on Spark local[2] against the local engine: every round's global model and messages, bit for bit;
 * DP-mu^2-FL within 1e-6 relative (its blocks' increments round the last coordinates of a row differently, see
 * Mu2BlocksTest in the core).
 */
class SparkFederatedTest {
    private static final int CLIENTS = 9;
    private static final int ROUNDS = 5;
    private static JavaSparkContext sc;

    @BeforeAll
    static void start() {
        sc = LocalSpark.start("federated-test");
    }

    @AfterAll
    static void stop() {
        sc.stop();
    }

    @Test
    void localDpFedAvgWithSampledClientsEqualsTheLocalEngine() {
        assertSameRuns(new FedAvgConfig(FedAvgVariant.DP_LOCAL, ROUNDS, 2, 6, new LearningRate.Constant(0.2), 1.0,
                new ClientSampling.Poisson(0.6), UpdateWeighting.UNIFORM, 1.0, 0.8, 0.0, 3));
    }

    @Test
    void centralDpFedAvgEqualsTheLocalEngine() {
        assertSameRuns(new FedAvgConfig(FedAvgVariant.DP_CENTRAL, ROUNDS, 2, 0, new LearningRate.Constant(0.2), 1.0,
                new ClientSampling.FixedSize(6), UpdateWeighting.UNIFORM, 1.0, 0.8, 0.0, 4));
    }

    @Test
    void gopaEqualsTheLocalEngine() {
        assertSameRuns(new FedAvgConfig(FedAvgVariant.GOPA, ROUNDS, 1, 8, new LearningRate.Constant(0.2), 1.0,
                new ClientSampling.Everyone(), UpdateWeighting.UNIFORM, 1.0, 0.5, 4.0, 6));
    }

    @Test
    void dpMu2WithAnUntrustedServerEqualsTheLocalEngine() {
        Mu2Config config = new Mu2Config(ServerTrust.UNTRUSTED, ROUNDS, 4, 0.2, new ParameterBall(20), 0.5,
                NoiseSchedule.constant(0.3), 7);
        List<NodeData> machines = PartyFixtures.data(CLIENTS, 12);
        try (Mu2Trainer one = mu2(config, machines); Mu2Trainer split = mu2(config, machines)) {
            split.distribute(SparkBlocks.on(sc, 3));
            for (int t = 0; t < ROUNDS; t++) {
                one.step();
                split.step();
                String what = "mu2-untrusted, round " + (t + 1);
                assertEquals(one.lastLoss(), split.lastLoss(), 1e-6 * Math.abs(one.lastLoss()), what + ": loss");
                assertClose(one.lastMessages(), split.lastMessages(), 1e-6, what + ": what the server received");
                assertClose(one.parameters(), split.parameters(), 1e-6, what + ": query point");
            }
            assertEquals(one.epsilon(), split.epsilon());
        }
    }

    private static Mu2Trainer mu2(Mu2Config config, List<NodeData> machines) {
        return Mu2Trainer.of(PartyFixtures.mlp(), machines, config, new SeededNoiseStreams(config.seed()),
                Mu2Privacy.of(config.trust(), 0.5, machines.size(), config.noise(), 1e-5), PrivacyBudget.unlimited(1e-5));
    }

    private static void assertSameRuns(FedAvgConfig config) {
        List<NodeData> clients = PartyFixtures.data(CLIENTS, 11);
        try (FedAvgTrainer one = run(config, clients); FedAvgTrainer split = run(config, clients)) {
            split.distribute(SparkBlocks.on(sc, 3));
            for (int t = 0; t < ROUNDS; t++) {
                one.step();
                split.step();
                String what = config.variant().cliName() + ", round " + t;
                assertEquals(Double.doubleToLongBits(one.lastLoss()), Double.doubleToLongBits(split.lastLoss()), what + ": loss");
                assertBitwise(one.lastMessages(), split.lastMessages(), what + ": what the server received");
                assertBitwise(one.parameters(), split.parameters(), what + ": global model");
            }
            assertEquals(one.ledger().orElseThrow().ledger(), split.ledger().orElseThrow().ledger());
            assertEquals(one.epsilon(), split.epsilon());
        }
    }

    private static FedAvgTrainer run(FedAvgConfig config, List<NodeData> clients) {
        return FedAvgTrainer.of(PartyFixtures.mlp(), clients, config, new SeededNoiseStreams(config.seed()),
                new SeededNoiseStreams(config.seed() + 1),
                config.variant() == FedAvgVariant.GOPA ? Topologies.randomKOut(clients.size(), 2, 3) : null,
                PrivacyBudget.unlimited(1e-5));
    }
}
