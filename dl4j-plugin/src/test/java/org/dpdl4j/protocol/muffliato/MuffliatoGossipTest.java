package org.dpdl4j.protocol.muffliato;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.graph.SymmetricEigendecomposition;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class MuffliatoGossipTest {

    private static INDArray random(int n, int d, long seed) {
        Nd4j.getRandom().setSeed(seed);
        return Nd4j.rand(DataType.DOUBLE, n, d).subi(0.5);
    }

    private static double disagreement(INDArray x) {
        return x.subRowVector(x.mean(0)).norm2Number().doubleValue();
    }

    /** The eigenvector of W (off consensus) whose eigenvalue has the largest modulus, as a [n, 1] column. */
    private static double[] slowest(MixingMatrix w, double[] eigenvalueOut) {
        SymmetricEigendecomposition e = SymmetricEigendecomposition.of(w.toArray());
        int n = w.size();
        double best = -1;
        int k = -1;
        for (int i = 0; i < n; i++) {
            double mu = e.eigenvalue(i);
            if (Math.abs(mu - 1) < 1e-9) {
                continue; // the consensus direction (connected graph: once)
            }
            if (Math.abs(mu) > best) {
                best = Math.abs(mu);
                k = i;
            }
        }
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = e.eigenvectorEntry(i, k);
        }
        eigenvalueOut[0] = e.eigenvalue(k);
        return v;
    }

    @Test
    void bothSchemesPreserveTheAverageExactly() {
        MixingMatrix w = MixingMatrix.metropolisHastings(Topologies.torus(4, 5));
        INDArray x = random(20, 7, 3);
        for (GossipScheme s : GossipScheme.values()) {
            INDArray out = new GossipPolynomial(w, s).apply(x, 25);
            INDArray diff = out.mean(0).sub(x.mean(0));
            assertTrue(diff.amaxNumber().doubleValue() < 1e-12, s + " moved the average by " + diff);
        }
    }

    @Test
    void plainGossipShrinksTheSlowestEigenvectorByLambdaPerStep() {
        MixingMatrix w = MixingMatrix.metropolisHastings(Topologies.ring(12));
        double[] mu = new double[1];
        double[] v = slowest(w, mu);
        GossipPolynomial g = new GossipPolynomial(w, GossipScheme.PLAIN);
        assertEquals(Math.abs(mu[0]), g.contraction(), 1e-12);
        INDArray x = Nd4j.createFromArray(v).reshape(12, 1);
        for (int t : new int[] {1, 5, 17}) {
            double ratio = disagreement(g.apply(x, t)) / disagreement(x);
            assertEquals(Math.pow(g.contraction(), t), ratio, 1e-12, "T = " + t);
            assertEquals(g.disagreementFactor(t), ratio, 1e-12);
        }
    }

    @Test
    void chebyshevAppliesTheScaledChebyshevPolynomialToEveryEigenvalue() {
        MixingMatrix w = MixingMatrix.metropolisHastings(Topologies.torus(3, 4));
        GossipPolynomial g = new GossipPolynomial(w, GossipScheme.CHEBYSHEV);
        double lambda = g.contraction();
        SymmetricEigendecomposition e = SymmetricEigendecomposition.of(w.toArray());
        int n = w.size();
        int steps = 6;
        for (int k = 0; k < n; k++) {
            double[] v = new double[n];
            for (int i = 0; i < n; i++) {
                v[i] = e.eigenvectorEntry(i, k);
            }
            INDArray out = g.apply(Nd4j.createFromArray(v).reshape(n, 1), steps);
            double mu = e.eigenvalue(k);
            // T_t(y) = cos(t acos y) on [-1, 1], cosh(t acosh y) above 1.
            double num = Math.abs(mu / lambda) <= 1 ? Math.cos(steps * Math.acos(mu / lambda))
                    : Math.cosh(steps * acosh(mu / lambda));
            double expected = num / Math.cosh(steps * acosh(1 / lambda));
            for (int i = 0; i < n; i++) {
                assertEquals(expected * v[i], out.getDouble(i, 0), 1e-10, "eigenvalue " + mu + ", node " + i);
            }
        }
        assertEquals(1 / Math.cosh(steps * acosh(1 / lambda)), g.disagreementFactor(steps), 1e-12);
    }

    private static double acosh(double y) {
        return Math.log(y + Math.sqrt(y * y - 1));
    }

    @Test
    void chebyshevBeatsPlainGossipAtTheSameNumberOfSteps() {
        for (Graph graph : new Graph[] {Topologies.ring(30), Topologies.torus(5, 6)}) {
            MixingMatrix w = MixingMatrix.metropolisHastings(graph);
            INDArray x = random(30, 4, 11);
            double start = disagreement(x);
            int steps = 12;
            double plain = disagreement(new GossipPolynomial(w, GossipScheme.PLAIN).apply(x, steps)) / start;
            double cheb = disagreement(new GossipPolynomial(w, GossipScheme.CHEBYSHEV).apply(x, steps)) / start;
            assertTrue(cheb < 0.75 * plain, "Chebyshev " + cheb + " vs plain " + plain + " on " + graph.vertexCount() + " nodes");
            assertTrue(plain <= new GossipPolynomial(w, GossipScheme.PLAIN).disagreementFactor(steps) + 1e-12);
            assertTrue(cheb <= new GossipPolynomial(w, GossipScheme.CHEBYSHEV).disagreementFactor(steps) + 1e-12);
        }
    }

    @Test
    void averagingConvergesToTheMeanOfTheNoisyValues() {
        MixingMatrix w = MixingMatrix.metropolisHastings(Topologies.torus(4, 4));
        MuffliatoAveraging avg = new MuffliatoAveraging(new GossipPolynomial(w, GossipScheme.CHEBYSHEV), 60);
        INDArray x = random(16, 5, 2).muli(10);
        SeededNoiseStreams streams = new SeededNoiseStreams(5);
        INDArray noisy = avg.noisy(x, 1.0, 0.3, streams, 0);
        for (int i = 0; i < 16; i++) {
            assertTrue(noisy.getRow(i).sub(x.getRow(i).mul(1.0 / x.getRow(i).norm2Number().doubleValue()))
                    .norm2Number().doubleValue() > 0, "noise was added to row " + i);
        }
        INDArray out = avg.run(x, 1.0, 0.3, streams, 0);
        INDArray target = noisy.mean(0);
        for (int i = 0; i < 16; i++) {
            assertTrue(out.getRow(i).sub(target).amaxNumber().doubleValue() < 1e-8, "node " + i + " did not reach the noisy mean");
        }
    }

    @Test
    void clippingBoundsEveryRowAndLeavesShortRowsAlone() {
        INDArray x = Nd4j.createFromArray(new double[][] {{3, 4}, {0.3, 0.4}});
        MuffliatoAveraging.clipRows(x, 1.0);
        assertEquals(0.6, x.getDouble(0, 0), 1e-12);
        assertEquals(0.8, x.getDouble(0, 1), 1e-12);
        assertEquals(0.3, x.getDouble(1, 0), 1e-12);
        assertEquals(2.0, MuffliatoAveraging.sensitivity(1.0));
    }

    @Test
    void aGraphWithoutSpectralGapIsRefused() {
        Graph twoParts = Graph.of(4, new int[] {0, 1}, new int[] {2, 3});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new GossipPolynomial(MixingMatrix.metropolisHastings(twoParts), GossipScheme.PLAIN));
        assertTrue(e.getMessage().contains("spectral gap"), e.getMessage());
    }
}
