package org.dpdl4j.data.synthetic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpdl4j.data.LabeledData;
import org.junit.jupiter.api.Test;

class BelletCollaborativeClassificationTest {
    private static final BelletProblem DEFAULT = BelletCollaborativeClassification.generate(17);

    @Test
    void similarityIsSymmetricWithZeroDiagonalAndThresholded() {
        double[][] w = DEFAULT.similarity();
        double[][] t = DEFAULT.targets();
        int n = w.length;
        assertEquals(100, n);
        int kept = 0;
        for (int i = 0; i < n; i++) {
            assertEquals(0.0, w[i][i]);
            for (int j = 0; j < n; j++) {
                assertEquals(w[i][j], w[j][i]);
                assertTrue(w[i][j] == 0 || (w[i][j] >= 1e-3 && w[i][j] <= 1), "W[" + i + "][" + j + "] = " + w[i][j]);
                if (i != j) {
                    double cos = (t[i][0] * t[j][0] + t[i][1] * t[j][1])
                            / Math.hypot(t[i][0], t[i][1]) / Math.hypot(t[j][0], t[j][1]);
                    double exact = Math.exp((cos - 1) / 0.1);
                    assertEquals(exact < 1e-3 ? 0 : exact, w[i][j], 1e-12);
                    if (w[i][j] > 0) {
                        kept++;
                    }
                }
            }
        }
        assertTrue(kept > 0 && kept < n * (n - 1), "the threshold keeps some and drops some weights: " + kept);
        assertEquals(sum(w[5]), DEFAULT.degree(5), 1e-12);
    }

    private static double sum(double[] a) {
        double s = 0;
        for (double v : a) {
            s += v;
        }
        return s;
    }

    @Test
    void agentsFollowTheConfiguration() {
        int flipped = 0;
        int total = 0;
        for (BelletAgent a : DEFAULT.agents()) {
            double[] t = a.target();
            assertEquals(100, t.length);
            for (int j = 2; j < t.length; j++) {
                assertEquals(0.0, t[j]);
            }
            LabeledData train = a.train();
            assertTrue(train.size() >= 10 && train.size() <= 100, "m_i = " + train.size());
            assertEquals(100, a.test().size());
            assertEquals(100, train.numFeatures());
            for (LabeledData d : new LabeledData[] {train, a.test()}) {
                float[][] x = d.features().toFloatMatrix();
                for (int k = 0; k < x.length; k++) {
                    double l1 = 0;
                    double dot = 0;
                    for (int j = 0; j < x[k].length; j++) {
                        l1 += Math.abs(x[k][j]);
                        dot += t[j] * x[k][j];
                    }
                    assertTrue(l1 <= 1 + 1e-6, "||x||_1 = " + l1);
                    int clean = dot >= 0 ? 1 : 0;
                    if (clean != d.label(k)) {
                        flipped++;
                    }
                    total++;
                }
            }
        }
        // Flips are Binomial(total, 0.05): allow four standard deviations.
        double sd = Math.sqrt(total * 0.05 * 0.95);
        assertEquals(0.05 * total, flipped, 4 * sd, flipped + " flips of " + total);
    }

    @Test
    void sizesCoverTheRange() {
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (BelletAgent a : DEFAULT.agents()) {
            min = Math.min(min, a.train().size());
            max = Math.max(max, a.train().size());
        }
        assertTrue(min < 20 && max > 90, min + ".." + max);
    }

    @Test
    void gaussianVariantBoundsTheL2Norm() {
        BelletProblem p = BelletCollaborativeClassification.generate(BelletConfig.defaults().withAgents(5).withDim(30)
                .withNorm(FeatureNorm.L2), 4);
        for (BelletAgent a : p.agents()) {
            float[][] x = a.train().features().toFloatMatrix();
            for (float[] row : x) {
                double l2 = 0;
                for (float v : row) {
                    l2 += v * v;
                }
                assertTrue(Math.sqrt(l2) <= 1 + 1e-6);
            }
        }
    }

    @Test
    void deterministicForASeed() {
        BelletConfig small = BelletConfig.defaults().withAgents(6).withDim(5);
        BelletProblem a = BelletCollaborativeClassification.generate(small, 9);
        BelletProblem b = BelletCollaborativeClassification.generate(small, 9);
        BelletProblem c = BelletCollaborativeClassification.generate(small, 10);
        assertArrayEquals(a.similarity(), b.similarity());
        assertEquals(a.agents().get(3).train().features(), b.agents().get(3).train().features());
        assertArrayEquals(a.agents().get(3).train().labels(), b.agents().get(3).train().labels());
        assertFalse(a.agents().get(3).target()[0] == c.agents().get(3).target()[0]);
    }

    @Test
    void invalidConfigurations() {
        BelletConfig d = BelletConfig.defaults();
        assertThrows(IllegalArgumentException.class, () -> d.withDim(1));
        assertThrows(IllegalArgumentException.class, () -> d.withAgents(0));
        assertThrows(IllegalArgumentException.class, () -> new BelletConfig(10, 10, 0, 1e-3, 10, 100, 100, 0.05,
                FeatureNorm.L1));
        assertThrows(IllegalArgumentException.class, () -> new BelletConfig(10, 10, 0.1, 1e-3, 50, 10, 100, 0.05,
                FeatureNorm.L1));
        assertEquals(1, BelletAgent.sign(1));
        assertEquals(-1, BelletAgent.sign(0));
    }
}
