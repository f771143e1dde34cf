package org.dpdl4j.protocol.federated;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.RunAssertions;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spec 7.5 oracles 1 and 3, client sampling, GOPA inside a round, checkpoints and refusals. */
class FedAvgTrainerTest {
    private static final int N_IN = 5;
    private static final int CLASSES = 3;

    private static FedAvgTrainer trainer(MultiLayerNetwork net, List<NodeData> clients, FedAvgConfig cfg) {
        return trainer(net, clients, cfg, PrivacyBudget.unlimited(1e-5));
    }

    private static FedAvgTrainer trainer(MultiLayerNetwork net, List<NodeData> clients, FedAvgConfig cfg, PrivacyBudget budget) {
        return FedAvgTrainer.of(net, clients, cfg, new SeededNoiseStreams(cfg.seed()), new SeededNoiseStreams(cfg.seed() + 1),
                cfg.variant() == FedAvgVariant.GOPA ? Topologies.randomKOut(clients.size(), 2, 3) : null, budget);
    }

    @Test
    void oneLocalFullBatchStepWithEqualWeightsIsOneGradientStepOnTheAverageObjective() {
        List<NodeData> clients = FederatedFixtures.softmaxClients(4, 10, N_IN, CLASSES, 1);
        MultiLayerNetwork net = FederatedFixtures.softmax(N_IN, CLASSES, 2);
        double eta = 0.3;
        INDArray theta = net.params().dup().reshape(net.numParams());
        FedAvgConfig cfg = FedAvgConfig.plain(3, 1, 0, new LearningRate.Constant(eta), new ClientSampling.Everyone(),
                UpdateWeighting.UNIFORM, 1);
        try (FedAvgTrainer t = trainer(net, clients, cfg)) {
            for (int r = 0; r < 3; r++) {
                INDArray g = Nd4j.zeros(theta.dataType(), theta.length());
                for (NodeData c : clients) {
                    g.addi(FederatedFixtures.meanGradient(net, theta, c.features(), c.labels()));
                }
                theta = theta.sub(g.divi(clients.size()).muli(eta));   // GD on (1/K) sum_k F_k
                t.step();
                assertArrayEquals(theta.toDoubleVector(), t.parameters().toDoubleVector(), 1e-12, "round " + (r + 1));
            }
        }
    }

    @Test
    void sizeWeightsGiveOneGradientStepOnThePooledData() {
        List<NodeData> clients = FederatedFixtures.softmaxClients(3, 7, N_IN, CLASSES, 4);
        MultiLayerNetwork net = FederatedFixtures.softmax(N_IN, CLASSES, 5);
        INDArray theta = net.params().dup().reshape(net.numParams());
        INDArray all = Nd4j.concat(0, clients.stream().map(NodeData::features).toArray(INDArray[]::new));
        INDArray labels = Nd4j.concat(0, clients.stream().map(NodeData::labels).toArray(INDArray[]::new));
        INDArray expected = theta.sub(FederatedFixtures.meanGradient(net, theta, all, labels).muli(0.2));
        FedAvgConfig cfg = FedAvgConfig.plain(1, 1, 0, new LearningRate.Constant(0.2), new ClientSampling.Everyone(),
                UpdateWeighting.BY_DATA_SIZE, 1);
        try (FedAvgTrainer t = trainer(net, clients, cfg)) {
            t.step();
            assertArrayEquals(expected.toDoubleVector(), t.parameters().toDoubleVector(), 1e-12);
        }
    }

    @Test
    void aSampledRoundTrainsExactlyTheDrawnClientsOnTheirOwnData() {
        List<NodeData> clients = FederatedFixtures.softmaxClients(5, 6, N_IN, CLASSES, 12);
        MultiLayerNetwork net = FederatedFixtures.softmax(N_IN, CLASSES, 13);
        INDArray theta = net.params().dup().reshape(net.numParams());
        FedAvgConfig cfg = FedAvgConfig.plain(1, 1, 0, new LearningRate.Constant(0.3), new ClientSampling.FixedSize(2),
                UpdateWeighting.UNIFORM, 1);
        try (FedAvgTrainer t = trainer(net, clients, cfg)) {
            t.step();
            int[] drawn = t.lastParticipants();
            assertEquals(2, drawn.length);
            INDArray g = Nd4j.zeros(theta.dataType(), theta.length());
            for (int k : drawn) {
                g.addi(FederatedFixtures.meanGradient(net, theta, clients.get(k).features(), clients.get(k).labels()));
            }
            assertArrayEquals(theta.sub(g.divi(2).muli(0.3)).toDoubleVector(), t.parameters().toDoubleVector(), 1e-12,
                    "clients " + java.util.Arrays.toString(drawn));
        }
    }

    @Test
    void localStepsAreSequentialSgdOnEachClient() {
        List<NodeData> clients = FederatedFixtures.softmaxClients(2, 6, N_IN, CLASSES, 8);
        MultiLayerNetwork net = FederatedFixtures.softmax(N_IN, CLASSES, 9);
        INDArray theta = net.params().dup().reshape(net.numParams());
        INDArray avg = Nd4j.zeros(theta.dataType(), theta.length());
        for (NodeData c : clients) {
            INDArray local = theta.dup();
            for (int s = 0; s < 3; s++) {
                local.subi(FederatedFixtures.meanGradient(net, local, c.features(), c.labels()).muli(0.5));
            }
            avg.addi(local.divi(clients.size()));
        }
        FedAvgConfig cfg = FedAvgConfig.plain(1, 3, 0, new LearningRate.Constant(0.5), new ClientSampling.Everyone(),
                UpdateWeighting.UNIFORM, 1);
        try (FedAvgTrainer t = trainer(net, clients, cfg)) {
            t.step();
            assertArrayEquals(avg.toDoubleVector(), t.parameters().toDoubleVector(), 1e-12);
        }
    }

    /** The noise a round adds to the model: local steps of size ~0 leave only the noise on the average. */
    private static double noiseStdOnTheAverage(FedAvgVariant variant, double z, int clients) {
        List<NodeData> data = FederatedFixtures.softmaxClients(clients, 5, 200, 10, 3);
        MultiLayerNetwork net = FederatedFixtures.softmax(200, 10, 4);
        INDArray before = net.params().dup().reshape(net.numParams());
        FedAvgConfig cfg = new FedAvgConfig(variant, 1, 1, 0, new LearningRate.Constant(1e-300), 1.0, new ClientSampling.Everyone(),
                UpdateWeighting.UNIFORM, 2.0, z, 0.0, 11);
        try (FedAvgTrainer t = trainer(net, data, cfg)) {
            t.step();
            INDArray moved = t.parameters().sub(before);
            return Math.sqrt(moved.mul(moved).meanNumber().doubleValue());
        }
    }

    @Test
    void forTheSameEpsilonLocalDpPutsSqrtKTimesMoreNoiseOnTheAverageThanCentralDp() {
        int k = 16;
        long rounds = 50;
        double zLocal = FedAvgPrivacy.calibrate(FedAvgVariant.DP_LOCAL, new ClientSampling.Everyone(), k, rounds, 3.0, 1e-5);
        double zCentral = FedAvgPrivacy.calibrate(FedAvgVariant.DP_CENTRAL, new ClientSampling.Everyone(), k, rounds, 3.0, 1e-5);
        // Same per-round mechanism (replace-one Gaussian, 2 alpha / z^2): the multipliers agree up to the accountants' order grid.
        assertEquals(zLocal, zCentral, 0.01 * zLocal);
        double local = noiseStdOnTheAverage(FedAvgVariant.DP_LOCAL, zLocal, k);
        double central = noiseStdOnTheAverage(FedAvgVariant.DP_CENTRAL, zLocal, k);
        double s = 2.0;
        assertEquals(zLocal * s / Math.sqrt(k), local, 0.05 * local, "local: sqrt(K) sigma / K");
        assertEquals(zLocal * s / k, central, 0.05 * central, "central: sigma / K");
        assertEquals(Math.sqrt(k), local / central, 0.07 * Math.sqrt(k));
    }

    /**
     * Central DP's uplinks carry the raw updates (what the trusted server, and an observer of the uplinks, sees); the
     * server clips its own copy: the step is the clipped sum plus the server's noise, over the expected count.
     */
    @Test
    void centralDpUplinksCarryTheRawUpdatesAndTheServerSumsThemClipped() {
        List<NodeData> clients = FederatedFixtures.softmaxClients(4, 10, N_IN, CLASSES, 1);
        LearningRate rate = new LearningRate.Constant(0.5);
        double clip = 0.01;
        double z = 0.7;
        FedAvgConfig plain = FedAvgConfig.plain(1, 1, 0, rate, new ClientSampling.Everyone(), UpdateWeighting.UNIFORM, 1);
        FedAvgConfig central = new FedAvgConfig(FedAvgVariant.DP_CENTRAL, 1, 1, 0, rate, 1.0, new ClientSampling.Everyone(),
                UpdateWeighting.UNIFORM, clip, z, 0.0, 1);
        try (FedAvgTrainer fedAvg = trainer(FederatedFixtures.softmax(N_IN, CLASSES, 2), clients, plain);
             FedAvgTrainer dp = trainer(FederatedFixtures.softmax(N_IN, CLASSES, 2), clients, central)) {
            INDArray before = dp.parameters();
            fedAvg.step();
            dp.step();
            INDArray raw = fedAvg.lastMessages();
            assertTrue(raw.norm2(1).minNumber().doubleValue() > clip, "the clip must be active for this check");
            assertEquals(raw, dp.lastMessages(), "the uplinks carried the raw updates, not the server's clipped copy");
            INDArray clipped = raw.dup();
            org.dpdl4j.optim.RowClipping.clip(clipped, clip);
            INDArray sum = clipped.sum(0);
            new SeededNoiseStreams(central.seed() + 1).privateNoise(0, 0).addGaussian(sum, z * clip);
            INDArray expected = before.add(sum.divi(clients.size()).reshape(before.shape()));
            assertArrayEquals(expected.toDoubleVector(), dp.parameters().toDoubleVector(), 1e-12);
        }
    }

    @Test
    void poissonClientSamplingIsAccountedAsTheSampledGaussianAndFixedSizeAsReplaceOne() {
        FedAvgConfig poisson = new FedAvgConfig(FedAvgVariant.DP_CENTRAL, 100, 1, 4, new LearningRate.Constant(0.1), 1.0,
                new ClientSampling.Poisson(0.1), UpdateWeighting.UNIFORM, 1.0, 1.2, 0.0, 1);
        FedAvgPrivacy p = FedAvgPrivacy.of(poisson, 100, null);
        assertEquals(org.dpdl4j.privacy.accounting.NeighbouringRelation.ADD_OR_REMOVE_ONE, p.relation());
        assertTrue(p.perRound() instanceof org.dpdl4j.privacy.accounting.PoissonSampledEvent);
        FedAvgConfig everyone = new FedAvgConfig(FedAvgVariant.DP_CENTRAL, 100, 1, 4, new LearningRate.Constant(0.1), 1.0,
                new ClientSampling.Everyone(), UpdateWeighting.UNIFORM, 1.0, 1.2, 0.0, 1);
        assertTrue(p.plannedEpsilon(100, 1e-5) < FedAvgPrivacy.of(everyone, 100, null).plannedEpsilon(100, 1e-5) / 3, "sampling amplifies");
        FedAvgConfig local = new FedAvgConfig(FedAvgVariant.DP_LOCAL, 100, 1, 4, new LearningRate.Constant(0.1), 1.0,
                new ClientSampling.Poisson(0.1), UpdateWeighting.UNIFORM, 1.0, 1.2, 0.0, 1);
        assertEquals(FedAvgPrivacy.of(everyone, 100, null).plannedEpsilon(100, 1e-5), FedAvgPrivacy.of(local, 100, null).plannedEpsilon(100, 1e-5), 1e-12,
                "local DP credits no sampling");
        FedAvgConfig fixed = new FedAvgConfig(FedAvgVariant.DP_CENTRAL, 100, 1, 4, new LearningRate.Constant(0.1), 1.0,
                new ClientSampling.FixedSize(10), UpdateWeighting.UNIFORM, 1.0, 1.2, 0.0, 1);
        assertEquals(org.dpdl4j.privacy.accounting.NeighbouringRelation.REPLACE_ONE, FedAvgPrivacy.of(fixed, 100, null).relation());
        try (FedAvgTrainer run = trainer(FederatedFixtures.softmax(N_IN, CLASSES, 1), FederatedFixtures.softmaxClients(100, 2, N_IN, CLASSES, 1), poisson)) {
            run.step();
            assertTrue(run.privacyStatement().contains("ADD_OR_REMOVE_ONE"), run.privacyStatement());
        }
        // Central calibration meets its target with the sampled event.
        double z = FedAvgPrivacy.calibrate(FedAvgVariant.DP_CENTRAL, new ClientSampling.Poisson(0.1), 100, 100, 2.0, 1e-5);
        FedAvgConfig calibrated = new FedAvgConfig(FedAvgVariant.DP_CENTRAL, 100, 1, 4, new LearningRate.Constant(0.1), 1.0,
                new ClientSampling.Poisson(0.1), UpdateWeighting.UNIFORM, 1.0, z, 0.0, 1);
        double eps = FedAvgPrivacy.of(calibrated, 100, null).plannedEpsilon(100, 1e-5);
        assertTrue(eps <= 2.0 && eps > 1.99, "calibrated epsilon " + eps);
    }

    @Test
    void poissonRoundsTakeVaryingParticipantsAndTrainOnlyThem() {
        List<NodeData> clients = FederatedFixtures.softmaxClients(20, 5, N_IN, CLASSES, 6);
        FedAvgConfig cfg = FedAvgConfig.plain(30, 1, 2, new LearningRate.Constant(0.1), new ClientSampling.Poisson(0.25),
                UpdateWeighting.UNIFORM, 1);
        int total = 0;
        java.util.Set<Integer> sizes = new java.util.HashSet<>();
        try (FedAvgTrainer t = trainer(FederatedFixtures.softmax(N_IN, CLASSES, 1), clients, cfg)) {
            for (int r = 0; r < 30; r++) {
                t.step();
                int[] p = t.lastParticipants();
                total += p.length;
                sizes.add(p.length);
                if (p.length > 0) {
                    assertEquals(p.length, t.lastMessages().size(0));
                }
            }
        }
        assertEquals(0.25 * 20 * 30, total, 4 * Math.sqrt(30 * 20 * 0.25 * 0.75), "about q N participants per round");
        assertTrue(sizes.size() > 2, "the number of participants varies");
    }

    @Test
    void gopaRoundsReachTheServerOnlyThroughTheNoisyValuesAndMatchCentralNoiseOnTheAverage() {
        int k = 12;
        List<NodeData> data = FederatedFixtures.softmaxClients(k, 5, 400, 10, 3);
        MultiLayerNetwork net = FederatedFixtures.softmax(400, 10, 4);   // 4010 coordinates: std known to about 1%
        INDArray before = net.params().dup().reshape(net.numParams());
        FedAvgConfig cfg = new FedAvgConfig(FedAvgVariant.GOPA, 1, 1, 0, new LearningRate.Constant(1e-300), 1.0,
                new ClientSampling.Everyone(), UpdateWeighting.UNIFORM, 1.0, 3.0, 50.0, 2);
        try (FedAvgTrainer t = trainer(net, data, cfg)) {
            t.step();
            double revealed = Math.sqrt(t.lastMessages().mul(t.lastMessages()).meanNumber().doubleValue());
            assertTrue(revealed > 50, "each revealed value is buried in pairwise noise: rms " + revealed);
            INDArray moved = t.parameters().sub(before);
            double onAverage = Math.sqrt(moved.mul(moved).meanNumber().doubleValue());
            assertEquals(3.0 / Math.sqrt(k), onAverage, 0.05 * onAverage, "only sigma_eta / sqrt(K) reaches the average");
        }
    }

    /** DP-FedAvg with local noise and Poisson client sampling (rounds may have no participant). */
    private static FedAvgConfig localDp(long rounds) {
        return new FedAvgConfig(FedAvgVariant.DP_LOCAL, rounds, 2, 3, new LearningRate.Constant(0.1), 1.0,
                new ClientSampling.Poisson(0.5), UpdateWeighting.UNIFORM, 1.0, 0.7, 0.0, 4);
    }

    @Test
    void resumedRunEqualsAnUninterruptedOne(@TempDir Path dir) {
        List<NodeData> clients = FederatedFixtures.softmaxClients(6, 8, N_IN, CLASSES, 2);
        RunAssertions.assertResumeEqualsUninterrupted(() -> trainer(FederatedFixtures.softmax(N_IN, CLASSES, 1), clients, localDp(10)),
                4, 10, dir.resolve("fedavg.ckpt"));
    }

    @Test
    void theBudgetStopsTheRunBeforeItIsExceeded() {
        List<NodeData> clients = FederatedFixtures.softmaxClients(6, 8, N_IN, CLASSES, 2);
        FedAvgConfig cfg = localDp(50);
        FedAvgPrivacy privacy = FedAvgPrivacy.of(cfg, clients.size(), null);
        double budget = RunAssertions.between(privacy.plannedEpsilon(9, 1e-5), privacy.plannedEpsilon(10, 1e-5));
        try (FedAvgTrainer t = trainer(FederatedFixtures.softmax(N_IN, CLASSES, 1), clients, cfg, new PrivacyBudget(budget, 1e-5))) {
            RunAssertions.assertStopsAtBudget(t, 9);
            assertEquals(privacy.plannedEpsilon(9, 1e-5), t.epsilon(), 0.0);
        }
    }

    @Test
    void badSettingsAreRefusedWithTheReason() {
        LearningRate lr = new LearningRate.Constant(0.1);
        IllegalArgumentException weights = assertThrows(IllegalArgumentException.class, () -> new FedAvgConfig(FedAvgVariant.DP_CENTRAL,
                10, 1, 0, lr, 1.0, new ClientSampling.Everyone(), UpdateWeighting.BY_DATA_SIZE, 1.0, 1.0, 0.0, 1));
        assertTrue(weights.getMessage().contains("uniform weights"), weights.getMessage());
        IllegalArgumentException gopa = assertThrows(IllegalArgumentException.class, () -> new FedAvgConfig(FedAvgVariant.GOPA,
                10, 1, 0, lr, 1.0, new ClientSampling.Poisson(0.5), UpdateWeighting.UNIFORM, 1.0, 1.0, 1.0, 1));
        assertTrue(gopa.getMessage().contains("every party"), gopa.getMessage());
        IllegalArgumentException clip = assertThrows(IllegalArgumentException.class, () -> new FedAvgConfig(FedAvgVariant.DP_LOCAL,
                10, 1, 0, lr, 1.0, new ClientSampling.Everyone(), UpdateWeighting.UNIFORM, Double.POSITIVE_INFINITY, 1.0, 0.0, 1));
        assertTrue(clip.getMessage().contains("update clip S"), clip.getMessage());
        IllegalArgumentException rate = assertThrows(IllegalArgumentException.class, () -> new ClientSampling.Poisson(0));
        assertTrue(rate.getMessage().contains("(0, 1]"), rate.getMessage());
        FedAvgConfig tooMany = FedAvgConfig.plain(1, 1, 0, lr, new ClientSampling.FixedSize(9), UpdateWeighting.UNIFORM, 1);
        IllegalArgumentException many = assertThrows(IllegalArgumentException.class,
                () -> trainer(FederatedFixtures.softmax(N_IN, CLASSES, 1), FederatedFixtures.softmaxClients(3, 4, N_IN, CLASSES, 1), tooMany));
        assertTrue(many.getMessage().contains("only 3"), many.getMessage());
    }
}
