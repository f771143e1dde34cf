package org.dpdl4j.protocol.muffliato;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.graph.SymmetricEigendecomposition;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class MuffliatoAccountantTest {
    private static final double DELTA = 1e-5;

    /** rho-zCDP to epsilon by hand: rho + 2 sqrt(rho ln(1/delta)). */
    private static double byHand(double rho) {
        return rho + 2 * Math.sqrt(rho * Math.log(1 / DELTA));
    }

    private static Graph star(int leaves) {
        int[][] edges = new int[leaves][];
        for (int i = 0; i < leaves; i++) {
            edges[i] = new int[] {0, i + 1};
        }
        return Graph.of(leaves + 1, edges);
    }

    @Test
    void twoNodesSeeEachOtherInFullFromTheFirstMessage() {
        MixingMatrix w = MixingMatrix.metropolisHastings(Topologies.path(2));
        assertEquals(0.0, PairwiseNetworkDp.of(w, GossipScheme.PLAIN, 0).exposure(0, 1));
        PairwiseNetworkDp acc = PairwiseNetworkDp.of(w, GossipScheme.PLAIN, 3);
        assertEquals(1.0, acc.exposure(0, 1), 1e-12);
        double z = 1.5;
        double local = byHand(4 / (2 * z * z));
        assertEquals(local, acc.epsilon(0, 1, z, 4, DELTA), 1e-12);
        assertEquals(local, PairwiseNetworkDp.localEpsilon(z, 4, DELTA), 1e-12);
    }

    @Test
    void aLeafOfAStarSeesTheOtherLeavesOnlyThroughTheirSum() {
        // Star, hub 0, m leaves; observer leaf v. Step 0 reveals z_hub; step 1 reveals (sum of the other leaves) / (m + 1)
        // once z_hub and v's own z_v are subtracted, and later steps repeat that sum by symmetry: E = 1 / (m - 1).
        int m = 3;
        MixingMatrix w = MixingMatrix.metropolisHastings(star(m));
        PairwiseNetworkDp one = PairwiseNetworkDp.of(w, GossipScheme.PLAIN, 1);
        assertEquals(1.0, one.exposure(0, 1), 1e-12);
        assertEquals(0.0, one.exposure(2, 1), 1e-12);
        for (int steps : new int[] {2, 3, 6}) {
            PairwiseNetworkDp acc = PairwiseNetworkDp.of(w, GossipScheme.PLAIN, steps);
            assertEquals(0.5, acc.exposure(2, 1), 1e-12, "T = " + steps);
            assertEquals(0.5, acc.exposure(3, 1), 1e-12);
            // z = 2, K = 5 rounds: rho = 5 * (1/2) / (2 * 4) = 5/16.
            assertEquals(byHand(5.0 / 16), acc.epsilon(2, 1, 2.0, 5, DELTA), 1e-12);
        }
        PairwiseNetworkDp five = PairwiseNetworkDp.of(MixingMatrix.metropolisHastings(star(5)), GossipScheme.PLAIN, 4);
        assertEquals(0.25, five.exposure(3, 1), 1e-12);
    }

    @Test
    void thePapersPerMessageSumCanFallBelowTheExactDivergence() {
        // Star with 3 leaves, W's hub row is (1/4, 1/4, 1/4, 1/4) at every t >= 1, so the paper's sum for leaf -> leaf is
        // (T - 1) * (1/4)^2 / (4 * (1/4)^2) = (T - 1) / 4; the exact exposure is 1/2 from T = 2 on.
        PairwiseNetworkDp acc = PairwiseNetworkDp.of(MixingMatrix.metropolisHastings(star(3)), GossipScheme.PLAIN, 2);
        double[][] paper = acc.paperFactors();
        assertEquals(0.25, paper[2][1], 1e-12);
        assertTrue(paper[2][1] < acc.exposure(2, 1));
        // ...and exceed local DP next to u: the hub's own value arrives at t = 0 (1) and again inside W z (1/4).
        assertEquals(1.25, paper[0][1], 1e-12);
    }

    @Test
    void exposuresMatchABruteForceProjectionForBothSchemes() {
        Graph[] graphs = {Topologies.torus(3, 4), Topologies.erdosRenyi(10, 0.3, 4), star(4), Topologies.path(6)};
        for (Graph g : graphs) {
            MixingMatrix w = MixingMatrix.metropolisHastings(g);
            for (int steps = 1; steps <= 4; steps++) {
                PairwiseNetworkDp acc = PairwiseNetworkDp.of(w, GossipScheme.CHEBYSHEV, steps);
                for (GossipScheme scheme : GossipScheme.values()) {
                    for (int v = 0; v < g.vertexCount(); v++) {
                        double[] oracle = bruteForce(new GossipPolynomial(w, scheme), v, steps);
                        for (int u = 0; u < g.vertexCount(); u++) {
                            assertEquals(oracle[u], acc.exposure(u, v), 1e-7,
                                    scheme + ", T = " + steps + ", u = " + u + ", v = " + v + " on " + g.vertexCount() + " nodes");
                        }
                    }
                }
            }
        }
    }

    /** Diagonal of the projector onto the rows v receives (messages of its neighbours, t < T), v's column removed. */
    private static double[] bruteForce(GossipPolynomial gossip, int v, int steps) {
        int n = gossip.matrix().size();
        INDArray id = Nd4j.eye(n).castTo(DataType.DOUBLE);
        List<double[]> rows = new ArrayList<>();
        for (int t = 0; t < steps; t++) {
            INDArray p = gossip.apply(id, t);
            for (int w : gossip.matrix().graph().neighbours(v)) {
                double[] row = new double[n - 1];
                for (int j = 0, k = 0; j < n; j++) {
                    if (j != v) {
                        row[k++] = p.getDouble(w, j);
                    }
                }
                rows.add(row);
            }
        }
        double[][] gram = new double[n - 1][n - 1];
        for (double[] r : rows) {
            for (int i = 0; i < n - 1; i++) {
                for (int j = 0; j < n - 1; j++) {
                    gram[i][j] += r[i] * r[j];
                }
            }
        }
        SymmetricEigendecomposition e = SymmetricEigendecomposition.of(gram);
        double top = e.eigenvalue(n - 2);
        double[] out = new double[n];
        for (int u = 0, k = 0; u < n; u++) {
            if (u == v) {
                continue;
            }
            double s = 0;
            for (int i = 0; i < n - 1; i++) {
                if (e.eigenvalue(i) > 1e-9 * top) {
                    s += e.eigenvectorEntry(k, i) * e.eigenvectorEntry(k, i);
                }
            }
            out[u] = s;
            k++;
        }
        return out;
    }

    @Test
    void noPairIsEverChargedMoreThanLocalDp() {
        Graph[] graphs = {Topologies.ring(9), Topologies.torus(4, 4), Topologies.randomRegular(12, 3, 1), star(5)};
        for (Graph g : graphs) {
            for (int steps : new int[] {1, 3, 8, 20}) {
                PairwiseNetworkDp acc = PairwiseNetworkDp.of(MixingMatrix.metropolisHastings(g), GossipScheme.CHEBYSHEV, steps);
                double local = PairwiseNetworkDp.localEpsilon(0.8, 3, DELTA);
                double[][] eps = acc.epsilons(0.8, 3, DELTA);
                for (double[] row : eps) {
                    for (double e : row) {
                        assertTrue(e <= local * (1 + 1e-12), e + " > local " + local);
                    }
                }
                PairwiseSummary s = acc.summary(0.8, 3, DELTA);
                assertTrue(s.mean() <= s.max() && s.max() <= s.local() * (1 + 1e-12), s.describe());
            }
        }
    }

    @Test
    void onAPathTheEndSeesExactlyTheNodesWithinTHops() {
        // A path reveals one new value per step to its end node (which knows its own noise): E = 1 up to distance T.
        int n = 7;
        PairwiseNetworkDp acc = PairwiseNetworkDp.of(MixingMatrix.metropolisHastings(Topologies.path(n)), GossipScheme.PLAIN, 3);
        int v = n - 1;
        for (int u = 0; u < v; u++) {
            int distance = v - u;
            assertEquals(distance <= 3 ? 1.0 : 0.0, acc.exposure(u, v), 1e-9, "distance " + distance);
        }
    }

    @Test
    void onATorusExposureFallsWithDistanceAndIsSymmetric() {
        Graph g = Topologies.torus(6, 6);
        int steps = 3;
        PairwiseNetworkDp acc = PairwiseNetworkDp.of(MixingMatrix.metropolisHastings(g), GossipScheme.PLAIN, steps);
        int n = g.vertexCount();
        int[][] dist = distances(g);
        double[] sum = new double[n];
        int[] count = new int[n];
        for (int u = 0; u < n; u++) {
            for (int v = 0; v < n; v++) {
                if (u != v) {
                    sum[dist[u][v]] += acc.exposure(u, v);
                    count[dist[u][v]]++;
                    assertEquals(acc.exposure(u, v), acc.exposure(v, u), 1e-9, "pair " + u + ", " + v);
                }
            }
        }
        double previous = 1.0 + 1e-12;
        for (int d = 1; d < n && count[d] > 0; d++) {
            double mean = sum[d] / count[d];
            assertTrue(mean <= previous, "mean exposure at distance " + d + " = " + mean + " > " + previous);
            if (d > steps) {
                assertEquals(0.0, mean, 1e-12, "nodes farther than T hops never reach v");
            }
            previous = mean;
        }
        assertTrue(sum[3] / count[3] < 0.9, "no amplification at distance 3: " + sum[3] / count[3]);
        assertTrue(sum[1] / count[1] > sum[3] / count[3]);
    }

    private static int[][] distances(Graph g) {
        int n = g.vertexCount();
        int[][] d = new int[n][n];
        for (int s = 0; s < n; s++) {
            java.util.Arrays.fill(d[s], -1);
            java.util.ArrayDeque<Integer> q = new java.util.ArrayDeque<>();
            d[s][s] = 0;
            q.add(s);
            while (!q.isEmpty()) {
                int x = q.poll();
                for (int y : g.neighbours(x)) {
                    if (d[s][y] < 0) {
                        d[s][y] = d[s][x] + 1;
                        q.add(y);
                    }
                }
            }
        }
        return d;
    }

    @Test
    void calibrationMeetsTheTargetMeanOrMax() {
        PairwiseNetworkDp acc = PairwiseNetworkDp.of(MixingMatrix.metropolisHastings(Topologies.torus(5, 5)), GossipScheme.CHEBYSHEV, 3);
        for (PairwiseNetworkDp.Target target : PairwiseNetworkDp.Target.values()) {
            double z = acc.noiseMultiplierFor(1.0, 10, DELTA, target);
            PairwiseSummary s = acc.summary(z, 10, DELTA);
            double got = target == PairwiseNetworkDp.Target.MAX ? s.max() : s.mean();
            assertTrue(got <= 1.0 && got > 0.999, target + ": " + got);
        }
        double zMean = acc.noiseMultiplierFor(1.0, 10, DELTA, PairwiseNetworkDp.Target.MEAN);
        double zMax = acc.noiseMultiplierFor(1.0, 10, DELTA, PairwiseNetworkDp.Target.MAX);
        assertTrue(zMean < zMax, "a mean target needs less noise than a max target");
        assertThrows(IllegalArgumentException.class, () -> PairwiseNetworkDp.of(
                MixingMatrix.metropolisHastings(Topologies.ring(5)), GossipScheme.PLAIN, 0).noiseMultiplierFor(1, 1, DELTA,
                PairwiseNetworkDp.Target.MEAN));
    }
    @Test
    void afterAResumeUnderChangedSettingsThePairwiseFiguresSayTheyCoverOnlyTheCurrentOnes() {
        MuffliatoPrivacy privacy = new MuffliatoPrivacy(PairwiseNetworkDp.of(MixingMatrix.metropolisHastings(star(4)),
                GossipScheme.PLAIN, 2), 1.0, 4.0, DELTA, 6);
        RunLedger first = new RunLedger(
                LedgerAccounting.standard(privacy.relation()),
                PrivacyBudget.unlimited(DELTA), true);
        for (int round = 0; round < 3; round++) {
            first.spend(round, IntStream.range(0, 5).mapToObj(privacy::roundOf).toList());
        }
        assertTrue(!privacy.statement(first).contains("resumed under changed settings"), privacy.statement(first));
        for (boolean changed : new boolean[]{false, true}) {
            RunLedger resumed = new RunLedger(
                    LedgerAccounting.standard(privacy.relation()),
                    PrivacyBudget.unlimited(DELTA), true);
            resumed.continueFrom(first.ledger(), changed);
            resumed.spend(3, IntStream.range(0, 5).mapToObj(privacy::roundOf).toList());
            String text = privacy.statement(resumed);
            assertEquals(changed, text.contains("The run was resumed under changed settings: these pairwise figures are those"
                    + " of the current settings alone"), text);
        }
    }
}
