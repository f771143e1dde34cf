package org.dpdl4j.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class MixingMatrixTest {

    private static void assertUniformOnSupport(MixingMatrix w, double value) {
        Graph g = w.graph();
        for (int i = 0; i < w.size(); i++) {
            for (int j = 0; j < w.size(); j++) {
                double expected = i == j || g.hasEdge(i, j) ? value : 0;
                assertEquals(expected, w.get(i, j), 1e-15, "W(" + i + "," + j + ")");
            }
        }
    }

    @Test
    void metropolisHastingsOnDecorTopologies() {
        assertUniformOnSupport(MixingMatrix.metropolisHastings(Topologies.ring(16)), 1.0 / 3);
        assertUniformOnSupport(MixingMatrix.metropolisHastings(Topologies.torus(4, 4)), 1.0 / 5);
        assertUniformOnSupport(MixingMatrix.metropolisHastings(Topologies.complete(16)), 1.0 / 16);
    }

    @Test
    void weightsAreSymmetricAndStochastic() {
        for (Graph g : List.of(Topologies.erdosRenyi(25, 0.2, 1), Topologies.star(9), Topologies.randomKOut(20, 2, 3))) {
            for (MixingMatrix w : List.of(MixingMatrix.metropolisHastings(g), MixingMatrix.uniform(g))) {
                for (int i = 0; i < w.size(); i++) {
                    double row = 0;
                    for (int j = 0; j < w.size(); j++) {
                        assertEquals(w.get(i, j), w.get(j, i), 0);
                        assertTrue(w.get(i, j) >= 0);
                        row += w.get(i, j);
                    }
                    assertEquals(1.0, row, 1e-12);
                }
            }
            MixingMatrix mh = MixingMatrix.metropolisHastings(g);
            for (Edge e : g.edges()) {
                assertEquals(1.0 / (Math.max(g.degree(e.i()), g.degree(e.j())) + 1), mh.get(e.i(), e.j()), 0);
                assertEquals(1.0 / (g.maxDegree() + 1), MixingMatrix.uniform(g).get(e.i(), e.j()), 0);
            }
        }
    }

    @Test
    void validationNamesTheEntry() {
        Graph path = Topologies.path(3);
        assertMessage(() -> MixingMatrix.of(path, new double[][] {{0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.6}}), "row 2 sums to");
        assertMessage(() -> MixingMatrix.of(path, new double[][] {{0.5, 0.4, 0.1}, {0.4, 0.2, 0.4}, {0.1, 0.4, 0.5}}),
                "(0, 2)");
        assertMessage(() -> MixingMatrix.of(path, new double[][] {{0.5, 0.5, 0}, {0.4, 0.1, 0.5}, {0, 0.5, 0.5}}), "not symmetric");
        assertMessage(() -> MixingMatrix.of(path, new double[][] {{1.5, -0.5, 0}, {-0.5, 1, 0.5}, {0, 0.5, 0.5}}), "non-negative");
        assertMessage(() -> MixingMatrix.of(path, new double[][] {{1, 0}, {0, 1}}), "3 nodes");
    }

    private static void assertMessage(org.junit.jupiter.api.function.Executable call, String part) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }

    @Test
    void consensusRate() {
        int n = 16;
        double lambda = (1 + 2 * Math.cos(2 * Math.PI / n)) / 3;
        assertEquals(1 - lambda * lambda, MixingMatrix.metropolisHastings(Topologies.ring(n)).consensusRate(), 1e-12);
        assertEquals(1.0, MixingMatrix.metropolisHastings(Topologies.complete(n)).consensusRate(), 1e-12);
        // Contraction property on a random X.
        MixingMatrix w = MixingMatrix.metropolisHastings(Topologies.erdosRenyi(12, 0.3, 2));
        INDArray x = Nd4j.rand(DataType.DOUBLE, 12, 5);
        INDArray xBar = x.mean(0);
        INDArray wx = w.toINDArray().mmul(x);
        double before = x.subRowVector(xBar).norm2Number().doubleValue();
        double after = wx.subRowVector(wx.mean(0)).norm2Number().doubleValue();
        assertTrue(after * after <= (1 - w.consensusRate()) * before * before * (1 + 1e-12));
        assertEquals(0.0, wx.mean(0).sub(xBar).norm2Number().doubleValue(), 1e-14, "gossip keeps the average");
    }

    /** Lemma 8: E||W B U||_F^2 = d sigma^2 sum_e ||W_a - W_b||^2, checked by Monte Carlo in ND4J. */
    @Test
    void correlatedNoiseReductionIdentity() {
        Graph g = Topologies.erdosRenyi(12, 0.35, 6);
        MixingMatrix w = MixingMatrix.metropolisHastings(g);
        int d = 4;
        double sigma = 1.7;
        double expected = d * sigma * sigma * w.edgeColumnDifferenceSum();
        assertEquals(w.edgeColumnDifferenceSum() / g.edgeCount(), w.mixingHeterogeneity(), 1e-15);
        INDArray wb = w.toINDArray().mmul(g.incidenceArray());
        Nd4j.getRandom().setSeed(2024);
        int trials = 2000;
        double sum = 0;
        double sumSq = 0;
        for (int t = 0; t < trials; t++) {
            INDArray u = Nd4j.randn(DataType.DOUBLE, g.edgeCount(), d).muli(sigma);
            double v = wb.mmul(u).norm2Number().doubleValue();
            v *= v;
            sum += v;
            sumSq += v * v;
        }
        double mean = sum / trials;
        double se = Math.sqrt((sumSq / trials - mean * mean) / trials);
        assertTrue(Math.abs(mean - expected) <= 3 * se, "Monte Carlo " + mean + " vs " + expected + " (se " + se + ")");

        Graph complete = Topologies.complete(8);
        MixingMatrix avg = MixingMatrix.averaging(complete);
        assertEquals(0.0, avg.mixingHeterogeneity(), 0);
        assertEquals(0.0, avg.toINDArray().mmul(complete.incidenceArray()).mmul(Nd4j.randn(DataType.DOUBLE, 28, 3))
                .norm2Number().doubleValue(), 0);
    }
}
