package org.dpdl4j.privacy.accounting.correlated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.dpdl4j.graph.Edge;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.GraphBuilder;
import org.dpdl4j.graph.Topologies;
import org.junit.jupiter.api.Test;

class SecRdpAccountantTest {

    private static double kappa(Graph g, double sCdp, double sCor, Adversary a) {
        return new SecRdpAccountant(g).kappa(new CorrelatedNoise(sCdp, sCor), a).kappa();
    }

    private static void assertRel(double expected, double actual, double rel, String what) {
        assertEquals(expected, actual, rel * Math.abs(expected), what);
    }

    @Test
    void completeGraphMatchesClosedForm() {
        for (int n : new int[] {2, 5, 16, 40}) {
            SecRdpAccountant acc = new SecRdpAccountant(Topologies.complete(n));
            for (double[] s : new double[][] {{1, 1}, {17.827099282407094, 32}, {0.3, 7}, {5, 0.01}}) {
                double expected = 1 / (n * s[0] * s[0]) + (1 - 1.0 / n) / (s[0] * s[0] + n * s[1] * s[1]);
                KappaResult r = acc.kappa(new CorrelatedNoise(s[0], s[1]), Adversary.eavesdropper());
                assertRel(expected, r.kappa(), 1e-12, "complete n=" + n);
                assertTrue(r.isExact());
            }
        }
    }

    @Test
    void ringAndTorusMatchSpectralFormula() {
        double sCdp = 3.1;
        double sCor = 11.7;
        for (int n : new int[] {3, 16, 101}) {
            double sum = 0;
            for (int k = 0; k < n; k++) {
                sum += 1 / (sCdp * sCdp + sCor * sCor * (2 - 2 * Math.cos(2 * Math.PI * k / n)));
            }
            assertRel(sum / n, kappa(Topologies.ring(n), sCdp, sCor, Adversary.eavesdropper()), 1e-12, "ring n=" + n);
        }
        for (int[] shape : new int[][] {{4, 4}, {3, 5}, {6, 7}}) {
            int r = shape[0];
            int c = shape[1];
            double sum = 0;
            for (int a = 0; a < r; a++) {
                for (int b = 0; b < c; b++) {
                    double lam = 4 - 2 * Math.cos(2 * Math.PI * a / r) - 2 * Math.cos(2 * Math.PI * b / c);
                    sum += 1 / (sCdp * sCdp + sCor * sCor * lam);
                }
            }
            assertRel(sum / (r * c), kappa(Topologies.torus(r, c), sCdp, sCor, Adversary.eavesdropper()), 1e-12,
                    "torus " + r + "x" + c);
        }
    }

    /** Spec 3.5.3: the accountant values of the reference repository (n = 16, C = 1, T = 3500, delta = 1e-5). */
    @Test
    void reproducesReferenceTable() {
        Object[][] rows = {
            {Topologies.ring(16), 17.827099282407094, 188.0, 4.656256603611915e-4, 10.2928},
            {Topologies.ring(16), 22.96953176771683, 94.0, 4.787248702487594e-4, 10.4597},
            {Topologies.ring(16), 9.249856092923046, 26.0, 4.122343262663763e-3, 40.2050},
            {Topologies.ring(16), 207.0862525649063, 501.0, 9.465625192158389e-6, 1.2683},
            {Topologies.torus(16), 22.96953176771683, 47.0, 4.6126811080439314e-4, 10.2369},
            {Topologies.torus(16), 8.573037354416481, 14.0, 4.125820943255319e-3, 40.2280},
            {Topologies.complete(16), 17.827099282407094, 32.0, 5.055856814808999e-4, 10.7968},
            {Topologies.complete(16), 7.219399877403354, 8.0, 4.140694970656176e-3, 40.3265},
        };
        double sens = UserLevelSensitivity.decor(1.0);
        for (Object[] row : rows) {
            Graph g = (Graph) row[0];
            KappaResult k = new SecRdpAccountant(g).kappa(new CorrelatedNoise((double) row[1], (double) row[2]), Adversary.eavesdropper());
            SecRdpGuarantee guarantee = SecRdpGuarantee.of(k, sens, 3500, 1e-5);
            double epsStep = (double) row[3];
            assertRel(epsStep, guarantee.rhoPerStep(), 1e-10, "eps_step of " + g + " " + row[1] + "/" + row[2]);
            assertRel(epsStep, k.rdpPerStep(2.0, sens) / 2.0, 1e-10, "rdp slope");
            double rho = 3500 * epsStep;
            assertRel(rho + 2 * Math.sqrt(rho * Math.log(1e5)), guarantee.epsilon(), 1e-10, "epsilon");
            assertEquals((double) row[4], guarantee.epsilon(), 5e-5, "epsilon to 4 decimals");
        }
        double[][] targets = {{1, 5.948553811295857e-6}, {10, 4.4295863673583433e-4}, {40, 4.091434523681889e-3}};
        for (double[] t : targets) {
            assertRel(t[1], DecorBaselines.of(t[0], 1e-5, 3500, sens, 16).rhoPerStep(), 1e-10, "per-step target for eps " + t[0]);
        }
    }

    @Test
    void baselinesMatchSpecExample() {
        DecorBaselines b = DecorBaselines.of(10, 1e-5, 3500, UserLevelSensitivity.decor(1), 16);
        assertRel(4.4295863673583433e-4, b.rhoPerStep(), 1e-12, "eps_bar");
        assertEquals(67.1945, b.sigmaLdp(), 5e-5);
        assertEquals(16.7986, b.sigmaCdpCentral(), 5e-5);
        assertRel(Math.sqrt(2 / b.rhoPerStep()), b.sigmaLdp(), 1e-14, "C sqrt(2/eps_bar)");
    }

    @Test
    void limitsAreLdpAndCdp() {
        Graph g = Topologies.erdosRenyi(20, 0.3, 5);
        SecRdpAccountant acc = new SecRdpAccountant(g);
        double sCdp = 2.5;
        for (Adversary a : List.of(Adversary.eavesdropper(), Adversary.curious(), Adversary.colluding(2))) {
            assertEquals(1 / (sCdp * sCdp), acc.kappa(new CorrelatedNoise(sCdp, 0), a).kappa(), 0, "sigma_cor = 0 is LDP for " + a);
        }
        // sigma_cor -> infinity: kappa -> 1/(n sigma_cdp^2) from above, within Theorem 1's remainder.
        double cdp = 1 / (20 * sCdp * sCdp);
        double a = g.algebraicConnectivity();
        for (double sCor : new double[] {1e2, 1e4, 1e6}) {
            double k = acc.kappa(new CorrelatedNoise(sCdp, sCor), Adversary.eavesdropper()).kappa();
            assertTrue(k >= cdp * (1 - 1e-12), "kappa above the CDP limit");
            assertTrue(k - cdp <= (1 - 1.0 / 20) / (sCdp * sCdp + sCor * sCor * a) * (1 + 1e-9), "remainder at sigma_cor=" + sCor);
        }
        assertRel(cdp, acc.kappaInfimum(sCdp, Adversary.eavesdropper()), 1e-15, "infimum");
    }

    @Test
    void curiousLimitOnTwoConnectedAndCutVertexGraphs() {
        double s = 2.0;
        // Ring: deleting one vertex leaves a path on n-1 vertices.
        SecRdpAccountant ring = new SecRdpAccountant(Topologies.ring(16));
        assertRel(1 / (15 * s * s), ring.kappaInfimum(s, Adversary.curious()), 1e-15, "ring curious infimum");
        // At sigma_cor / sigma_cdp = 1e4 (far beyond calibrated pairs) the curious value stays between the
        // limit and Theorem 1, to the documented accuracy of about 1e-16 sigma_cor^2 / sigma_cdp^2.
        double sCor = 2e4;
        double k = ring.kappa(new CorrelatedNoise(s, sCor), Adversary.curious()).kappa();
        double aPath = 2 - 2 * Math.cos(Math.PI / 15);
        assertTrue(k >= 1 / (15 * s * s) * (1 - 1e-7), "above the limit: " + k);
        assertTrue(k <= TheoremOneBound.kappaBound(15, new CorrelatedNoise(s, sCor), aPath) * (1 + 1e-7), "below Theorem 1: " + k);
        // Star: deleting the centre isolates every leaf, so curious users see plain LDP.
        SecRdpAccountant star = new SecRdpAccountant(Topologies.star(8));
        assertRel(1 / (s * s), star.kappaInfimum(s, Adversary.curious()), 1e-15, "star curious infimum");
    }

    @Test
    void monotoneInBothNoiseLevels() {
        Graph g = Topologies.erdosRenyi(14, 0.35, 9);
        SecRdpAccountant acc = new SecRdpAccountant(g);
        for (Adversary a : List.of(Adversary.eavesdropper(), Adversary.curious(), Adversary.colluding(2))) {
            double[] levels = {0, 0.1, 0.5, 1, 3, 10, 100};
            for (double sCdp : new double[] {0.5, 1, 4}) {
                double previous = Double.POSITIVE_INFINITY;
                for (double sCor : levels) {
                    double k = acc.kappa(new CorrelatedNoise(sCdp, sCor), a).kappa();
                    assertTrue(k <= previous * (1 + 1e-12), a + ": kappa must not grow with sigma_cor");
                    previous = k;
                }
            }
            for (double sCor : new double[] {0, 1, 10}) {
                double previous = Double.POSITIVE_INFINITY;
                for (double sCdp : new double[] {0.2, 0.5, 1, 2, 8}) {
                    double k = acc.kappa(new CorrelatedNoise(sCdp, sCor), a).kappa();
                    assertTrue(k <= previous * (1 + 1e-12), a + ": kappa must not grow with sigma_cdp");
                    previous = k;
                }
            }
        }
    }

    @Test
    void removingAnEdgeNeverDecreasesKappa() {
        Random rng = new Random(42);
        for (int trial = 0; trial < 8; trial++) {
            Graph g = Topologies.erdosRenyi(12 + trial, 0.4, trial);
            List<Edge> edges = g.edges();
            Edge removed = edges.get(rng.nextInt(edges.size()));
            GraphBuilder b = Graph.builder(g.vertexCount());
            for (Edge e : edges) {
                if (!e.equals(removed)) {
                    b.addEdge(e.i(), e.j());
                }
            }
            Graph smaller = b.build();
            for (Adversary a : List.of(Adversary.eavesdropper(), Adversary.curious())) {
                double before = kappa(g, 1.3, 4.0, a);
                double after = kappa(smaller, 1.3, 4.0, a);
                assertTrue(after >= before * (1 - 1e-12), "Rayleigh monotonicity, trial " + trial + ", " + a);
            }
        }
    }

    @Test
    void honestVertexIsolatedByColludersIsAtLdpLevel() {
        // Vertex 0 has neighbours 1 and 2 only; if they collude, 0 is alone.
        Graph g = Graph.of(6, new int[] {0, 1}, new int[] {0, 2}, new int[] {1, 2}, new int[] {1, 3}, new int[] {2, 4},
                new int[] {3, 4}, new int[] {3, 5}, new int[] {4, 5});
        KappaResult r = new SecRdpAccountant(g).kappa(new CorrelatedNoise(2.0, 50.0), Adversary.colluding(2));
        assertRel(0.25, r.kappa(), 1e-12, "isolated honest vertex");
        assertTrue(r.isExact());
        assertEquals(0.25, DirectKappa.kappaAfterDeleting(g, 2.0, 50.0, 1, 2), 1e-12);
        // Star: the centre is one curious user away from isolating every leaf.
        KappaResult star = new SecRdpAccountant(Topologies.star(9)).kappa(new CorrelatedNoise(3.0, 100.0), Adversary.curious());
        assertRel(1 / 9.0, star.kappa(), 1e-12, "star, curious centre");
        assertEquals(List.of(0), star.worstDeletedSet());
    }

    @Test
    void theoremOneBoundsEveryHonestSet() {
        for (int trial = 0; trial < 6; trial++) {
            Graph g = Topologies.erdosRenyi(10 + 2 * trial, 0.3, 100 + trial);
            CorrelatedNoise noise = new CorrelatedNoise(0.7 + trial, 3.0 * (trial + 1));
            double kappa = new SecRdpAccountant(g).kappa(noise, Adversary.eavesdropper()).kappa();
            double bound = TheoremOneBound.kappaBound(g.vertexCount(), noise, g.algebraicConnectivity());
            assertTrue(kappa <= bound * (1 + 1e-12), "eavesdropper, trial " + trial);
            for (int v = 0; v < g.vertexCount(); v++) {
                Graph h = g.deleteVertex(v).graph();
                double kh = DirectKappa.kappa(h, noise.sigmaCdp(), noise.sigmaCor());
                assertTrue(kh <= TheoremOneBound.kappaBound(h.vertexCount(), noise, h.algebraicConnectivity()) * (1 + 1e-12),
                        "honest set without " + v);
            }
        }
    }

    @Test
    void curiousAndColludingMatchDirectInversion() {
        List<Graph> graphs = List.of(Topologies.ring(16), Topologies.torus(4, 4), Topologies.erdosRenyi(18, 0.25, 3),
                Topologies.randomRegular(20, 3, 4), Topologies.complete(9), Topologies.star(7), Topologies.path(9));
        for (Graph g : graphs) {
            SecRdpAccountant acc = new SecRdpAccountant(g);
            for (double[] s : new double[][] {{17.8271, 188}, {1, 1}, {1, 100}, {16.8, 671.9}}) {
                CorrelatedNoise noise = new CorrelatedNoise(s[0], s[1]);
                KappaResult curious = acc.kappa(noise, Adversary.curious());
                double direct = DirectKappa.worstOverSubsets(g, s[0], s[1], 1);
                assertRel(direct, curious.kappa(), 1e-9, g + " curious at " + s[0] + "/" + s[1]);
                // The reported witnesses reproduce the value.
                int deleted = curious.worstDeletedSet().get(0);
                assertRel(direct, DirectKappa.kappaAfterDeleting(g, s[0], s[1], deleted), 1e-9, "worst deleted vertex");
                assertFalse(curious.worstVertex().getAsInt() == deleted);
                KappaResult eaves = acc.kappa(noise, Adversary.eavesdropper());
                assertRel(DirectKappa.kappa(g, s[0], s[1]), eaves.kappa(), 1e-10, g + " eavesdropper");
                assertTrue(curious.kappa() >= eaves.kappa() * (1 - 1e-12), "curious users are at least as strong");
            }
            if (g.vertexCount() <= 16) {
                CorrelatedNoise noise = new CorrelatedNoise(1.5, 9.0);
                assertRel(DirectKappa.worstOverSubsets(g, 1.5, 9.0, 2), acc.kappa(noise, Adversary.colluding(2)).kappa(), 1e-9,
                        g + " two colluders");
            }
        }
    }

    @Test
    void collusionBoundIsAboveExactValue() {
        for (int trial = 0; trial < 6; trial++) {
            Graph g = Topologies.erdosRenyi(11, 0.45, 200 + trial);
            SecRdpAccountant acc = new SecRdpAccountant(g);
            CorrelatedNoise noise = new CorrelatedNoise(1.0 + trial, 5.0 + 10 * trial);
            for (int q = 0; q <= 3; q++) {
                Adversary a = q == 0 ? Adversary.eavesdropper() : Adversary.colluding(q);
                double exact = acc.kappa(noise, a).kappa();
                double bound = TheoremOneBound.collusionBound(11, q, g.algebraicConnectivity(), noise);
                assertTrue(bound >= exact * (1 - 1e-12), "trial " + trial + ", q = " + q + ": bound " + bound + " < exact " + exact);
            }
        }
    }

    @Test
    void manyCollludersFallBackToReportedBound() {
        Graph g = Topologies.randomRegular(40, 6, 1);
        SecRdpAccountant acc = new SecRdpAccountant(g);
        Adversary four = Adversary.colluding(4); // C(40, 4) = 91390 sets
        assertFalse(acc.isExact(four));
        assertTrue(acc.isExact(Adversary.colluding(2)));
        CorrelatedNoise noise = new CorrelatedNoise(2, 30);
        KappaResult r = acc.kappa(noise, four);
        assertEquals(KappaExactness.UPPER_BOUND, r.exactness());
        assertTrue(r.worstVertex().isEmpty());
        double a = Math.max(0, g.algebraicConnectivity() - 4);
        assertRel(Math.min(0.25, 1 / (36 * 4.0) + (1 - 1 / 36.0) / (4 + 900 * a)), r.kappa(), 1e-14, "bound formula");
        assertTrue(r.kappa() >= acc.kappa(noise, Adversary.colluding(2)).kappa());
    }

    @Test
    void ringVertexDeletionValues() {
        SecRdpAccountant acc = new SecRdpAccountant(Topologies.ring(16));
        CorrelatedNoise noise = new CorrelatedNoise(17.8271, 188);
        double k = acc.kappa(noise, Adversary.eavesdropper()).kappa();
        double k1 = acc.kappa(noise, Adversary.curious()).kappa();
        assertEquals(2.3281e-4, k, 0.00005e-4);
        assertEquals(3.2149e-4, k1, 0.00005e-4);
        assertTrue(k1 >= k);
        // The deleted ring is a path: kappa_1 is the path's kappa.
        assertRel(DirectKappa.kappa(Topologies.path(15), 17.8271, 188), k1, 1e-10, "path of 15");
    }

    @Test
    void sensitivityIsExplicit() {
        KappaResult r = new SecRdpAccountant(Topologies.ring(8)).kappa(new CorrelatedNoise(1, 2), Adversary.eavesdropper());
        assertRel(0.5 * r.kappa() * 3.0, r.rdpPerStep(3.0, UserLevelSensitivity.gopa()), 1e-15, "GOPA: alpha kappa / 2");
        assertRel(2 * 0.09 * r.kappa() * 3.0, r.rdpPerStep(3.0, UserLevelSensitivity.decor(0.3)), 1e-15, "Decor: 2 alpha C^2 kappa");
        SecRdpGuarantee g = SecRdpGuarantee.of(r, UserLevelSensitivity.decor(0.3), 100, 1e-6);
        assertRel(100 * 2 * 0.09 * r.kappa(), g.rho(), 1e-15, "rho = 2 T C^2 kappa");
        assertRel(g.rho() + 2 * Math.sqrt(g.rho() * Math.log(1e6)), g.epsilon(), 1e-15, "conversion");
        assertThrows(IllegalArgumentException.class, () -> r.rdpPerStep(1.0, 1.0));
        assertThrows(IllegalArgumentException.class, () -> r.rhoPerStep(0));
    }

    @Test
    void rejectsBadInput() {
        assertThrows(IllegalArgumentException.class, () -> new CorrelatedNoise(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new CorrelatedNoise(1, -1));
        assertThrows(IllegalArgumentException.class, () -> new CorrelatedNoise(1, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> Adversary.colluding(0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Adversary.parse("colluding:x"));
        assertTrue(e.getMessage().contains("colluding:Q"), e.getMessage());
        assertEquals(Adversary.colluding(3), Adversary.parse("Colluding:3"));
        assertEquals(Adversary.curious(), Adversary.parse("curious"));
        assertEquals(Adversary.eavesdropper(), Adversary.parse("eavesdropper"));
        SecRdpAccountant acc = new SecRdpAccountant(Topologies.ring(4));
        IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
                () -> acc.kappa(new CorrelatedNoise(1, 1), Adversary.colluding(4)));
        assertTrue(tooMany.getMessage().contains("at least one honest user"), tooMany.getMessage());
    }

    @Test
    void binomialSaturates() {
        assertEquals(4950, SecRdpAccountant.binomial(100, 2));
        assertEquals(91390, SecRdpAccountant.binomial(40, 4));
        assertEquals(Long.MAX_VALUE, SecRdpAccountant.binomial(1000, 500));
    }
}
