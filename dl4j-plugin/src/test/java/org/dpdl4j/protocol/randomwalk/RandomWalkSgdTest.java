package org.dpdl4j.protocol.randomwalk;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.accounting.RdpAccountant;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.federated.FederatedFixtures;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.runtime.RunAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spec 7.5 oracles 4 and 5: the random walk's visits and SGD limit, and the network-DP bound below the LDP bound. */
class RandomWalkSgdTest {

    /** A seeded walk with the configuration's settings (a noise std of 0 is a non-private walk). */
    private static RandomWalkSgd walk(MultiLayerNetwork net, List<NodeData> parties, RandomWalkConfig cfg) {
        return RandomWalkSgd.builder().model(net).parties(parties).steps(cfg.steps()).stepSize(cfg.stepSize())
                .gradientBound(cfg.gradientBound()).sigma(cfg.sigma()).batchSize(cfg.batchSize()).seed(cfg.seed())
                .noiseKind(NoiseKind.SEEDED).build();
    }


    @Test
    void visitCountsAreBinomialTOverK() {
        int k = 50;
        long t = 100_000;
        List<NodeData> parties = FederatedFixtures.softmaxClients(k, 2, 3, 2, 1);
        RandomWalkConfig cfg = new RandomWalkConfig(t, 0.1, 1.0, 1.0, 0, 3);
        try (RandomWalkSgd walk = walk(FederatedFixtures.softmax(3, 2, 1), parties, cfg)) {
            long[] counts = walk.visitCounts();
            double expected = (double) t / k;
            double chi2 = 0;
            long total = 0;
            for (long c : counts) {
                chi2 += (c - expected) * (c - expected) / expected;
                total += c;
            }
            assertEquals(t, total);
            // Multinomial(T, 1/K) counts: Pearson's statistic is chi-square with K - 1 degrees of freedom.
            assertTrue(chi2 < (k - 1) + 5 * Math.sqrt(2 * (k - 1)) && chi2 > (k - 1) - 5 * Math.sqrt(2 * (k - 1)), "chi2 = " + chi2);
        }
    }

    @Test
    void withoutNoiseAndWithOnePartyTheWalkIsGradientDescent() {
        NodeData only = FederatedFixtures.softmaxClients(1, 9, 4, 3, 2).get(0);
        MultiLayerNetwork net = FederatedFixtures.softmax(4, 3, 5);
        INDArray theta = net.params().dup().reshape(net.numParams());
        RandomWalkConfig cfg = new RandomWalkConfig(5, 0.4, Double.POSITIVE_INFINITY, 0.0, 0, 1);
        try (RandomWalkSgd walk = walk(net, List.of(only), cfg)) {
            for (int s = 0; s < 5; s++) {
                theta = theta.sub(FederatedFixtures.meanGradient(net, theta, only.features(), only.labels()).muli(0.4));
                walk.step();
                assertArrayEquals(theta.toDoubleVector(), walk.parameters().toDoubleVector(), 1e-12, "step " + (s + 1));
            }
        }
    }

    @Test
    void networkDpBoundNeverExceedsTheLocalDpBoundAtAnyOrder() {
        double[] orders = RdpAccountant.defaultOrders();
        for (int k : new int[]{1, 2, 10, 100, 1000}) {
            for (double c : new double[]{1e-4, 0.01, 1, 20}) {
                double[] network = NetworkDpBound.perContribution(orders, k, c);
                for (int i = 0; i < orders.length; i++) {
                    assertTrue(network[i] <= orders[i] * c * (1 + 1e-12), "K = " + k + ", c = " + c + ", alpha = " + orders[i]
                            + ": " + network[i] + " > LDP " + orders[i] * c);
                    assertTrue(network[i] >= 0, "non-negative");
                }
                if (k == 1) {
                    assertEquals(orders[10] * c, network[10], 1e-12 * orders[10] * c, "one party: no hiding");
                }
            }
        }
        // With many parties the bound is a real improvement at moderate orders.
        double alpha = 8;
        double improved = NetworkDpBound.atOrder(alpha, 100, 0.01);
        assertTrue(improved < 0.2 * alpha * 0.01, "amplification: " + improved + " vs LDP " + alpha * 0.01);
    }

    @Test
    void ldpAccountantComposesTheWorstPartysVisitsAndTheNetworkBoundIsReportedBesideIt() {
        RandomWalkPrivacy p = new RandomWalkPrivacy(new long[]{10, 40, 25}, 1.0, 20.0, 1e-5);
        assertEquals(40, p.maxVisits());
        double rho = 40 * 2.0 / 400.0;
        // 40 Gaussian releases: the exact curve at mu^2 = 2 rho (the default accounting), below zCDP's conversion
        assertEquals(org.dpdl4j.privacy.accounting.GaussianPrivacyCurve.epsilon(Math.sqrt(2 * rho), 1e-5), p.ldpEpsilon(), 1e-12);
        assertTrue(p.ldpEpsilon() < rho + 2 * Math.sqrt(rho * Math.log(1e5)));
        assertTrue(p.ldpEpsilon(0) < p.ldpEpsilon());
        double network = p.networkEpsilon(1.0, 0.5).epsilon();
        assertTrue(network <= p.ldpEpsilon() * (1 + 1e-9), network + " vs " + p.ldpEpsilon());
        String statement = p.statement(1.0, 0.5);
        assertTrue(statement.contains("local DP (exact, the guarantee)") && statement.contains("NEEDS REVIEW"), statement);
        IllegalArgumentException step = assertThrows(IllegalArgumentException.class, () -> p.networkEpsilon(10.0, 0.5));
        assertTrue(step.getMessage().contains("gamma <= 2 / beta"), step.getMessage());
        IllegalArgumentException noise = assertThrows(IllegalArgumentException.class, () -> new RandomWalkConfig(10, 0.1,
                Double.POSITIVE_INFINITY, 1.0, 0, 1));
        assertTrue(noise.getMessage().contains("finite gradient bound"), noise.getMessage());
    }

    /** A seeded noisy walk over five parties with local batches (sampling streams in use). */
    private static RandomWalkRunBuilder noisyWalk(List<NodeData> parties) {
        return RandomWalkSgd.builder().model(FederatedFixtures.softmax(3, 2, 1)).parties(parties).steps(40).stepSize(0.2)
                .gradientBound(1.0).sigma(6.0).batchSize(3).seed(9).noiseKind(NoiseKind.SEEDED);
    }

    @Test
    void theBudgetStopsTheWalkBeforeTheVisitThatWouldExceedIt() {
        List<NodeData> parties = FederatedFixtures.softmaxClients(5, 6, 3, 2, 4);
        int[] path;
        double[] planned = new double[2];
        try (RandomWalkSgd probe = noisyWalk(parties).build()) {
            path = probe.path();
            LedgerAccounting accounting = LedgerAccounting.standard(probe.privacy().relation());
            planned[0] = accounting.plannedEpsilon(probe.privacy().perVisit(), 3, 1e-5);
            planned[1] = accounting.plannedEpsilon(probe.privacy().perVisit(), 4, 1e-5);
        }
        // The walk is accounted per party: it stops at the first hop that would be some party's fourth visit.
        int[] visits = new int[parties.size()];
        int allowed = 0;
        while (++visits[path[allowed]] <= 3) {
            allowed++;
        }
        assertTrue(allowed >= 5, "the stop comes after several hops: " + allowed);
        try (RandomWalkSgd walk = noisyWalk(parties).budget(RunAssertions.between(planned[0], planned[1])).build()) {
            RunAssertions.assertStopsAtBudget(walk, allowed);
            assertEquals(planned[0], walk.epsilon(), 0.0);
            assertEquals(planned[0], walk.ledger().orElseThrow().spentBy(path[allowed]).epsilon(), 0.0,
                    "the party whose visit was refused has had three");
        }
    }

    @Test
    void aResumedWalkEqualsAnUninterruptedOne(@TempDir Path dir) {
        List<NodeData> parties = FederatedFixtures.softmaxClients(5, 6, 3, 2, 4);
        RunAssertions.assertResumeEqualsUninterrupted(() -> noisyWalk(parties).build(), 13, 40, dir.resolve("walk.ckpt"));
    }
}
