package org.dpdl4j.attacks.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * L-BFGS and Adam against golden trajectories of PyTorch 2.13 ({@code torch.optim.LBFGS} and
 * {@code torch.optim.Adam}, float64) on the 4-dimensional Rosenbrock function from (-1.2, 1, -0.5, 0.8). The
 * L-BFGS trajectories agree to about 1e-8 relative after 20-100 evaluations; the tolerance 1e-6 leaves room
 * for the different summation order of dot products, which Rosenbrock's curvature amplifies.
 */
class OptimizersTest {

    /** {@code sum (1 - x_i)^2 + 100 (x_{i+1} - x_i^2)^2}. */
    static final class Rosenbrock implements FlatObjective {
        int evaluations;

        @Override
        public int dimension() {
            return 4;
        }

        @Override
        public double evaluate(double[] x, double[] g) {
            evaluations++;
            double f = 0;
            java.util.Arrays.fill(g, 0);
            for (int i = 0; i + 1 < x.length; i++) {
                double a = 1 - x[i];
                double b = x[i + 1] - x[i] * x[i];
                f += a * a + 100 * b * b;
                g[i] += -2 * a - 400 * b * x[i];
                g[i + 1] += 200 * b;
            }
            return f;
        }
    }

    private static double[] start() {
        return new double[] {-1.2, 1.0, -0.5, 0.8};
    }

    @Test
    void lbfgsWithPytorchDefaultsFollowsPytorch() {
        double[][] points = {
                {-0.24666140252526925, 0.08511975373079206, 0.013145318694410182, 0.003491019715343873},
                {0.545144753486263, 0.29435904219751347, 0.07879293560858004, 0.007804659921747937},
                {1.1058953738007629, 1.182170745826935, 1.2754961821460409, 1.2796114450822287},
                {0.9461567312004346, 0.8951188146000011, 0.8014637093998881, 0.6445924390809216},
                {0.9999995747232511, 0.9999999333536963, 0.9999997208743698, 0.9999995293296158},
                {0.9999995747232511, 0.9999999333536963, 0.9999997208743698, 0.9999995293296158}};
        double[] lossAtStart = {281.7, 3.428576347833177, 1.5606661208925152, 13.836481738657728,
                0.053827319512860274, 6.4608000514108e-11};
        long[] totalEvaluations = {20, 40, 60, 80, 100, 101};
        Rosenbrock f = new Rosenbrock();
        Lbfgs lbfgs = new Lbfgs(LbfgsConfig.pytorchDefaults());
        double[] x = start();
        for (int s = 0; s < points.length; s++) {
            StepOutcome outcome = lbfgs.step(f, x);
            assertEquals(lossAtStart[s], outcome.lossAtStart(), 1e-6 * Math.max(1, lossAtStart[s]), "loss, step " + s);
            assertArrayEquals(points[s], x, 1e-6, "point after step " + s);
            assertEquals(totalEvaluations[s], lbfgs.evaluations(), "evaluations after step " + s);
            assertEquals(s == 5, outcome.stationary(), "stationary flag at step " + s);
        }
        assertEquals(101, f.evaluations);
    }

    @Test
    void lbfgsWithShortHistoryAndFewIterationsFollowsPytorch() {
        // history_size=3, max_iter=7 (max_eval 8 by PyTorch's default 1.25 x max_iter), lr=0.5
        double[][] points = {
                {-0.6111141018407348, 0.3840245210297241, 0.14945666117674655, 0.030195875239862457},
                {-0.6076858615142632, 0.3824082425230244, 0.15503707395177874, 0.02388414169373237},
                {-0.5325542459599828, 0.296322670203594, 0.09632594698731076, -0.0012226331626120689},
                {-0.15428954707301357, 0.02302178024098867, -0.0014148831898638421, 0.000771539814609441},
                {2.495157431042655, -0.15218563889835074, 0.40424210077979617, -0.012446911110017037},
                {1.06166515923895, 0.7076138217828551, 0.3254109924247282, 0.029130921606602547}};
        double[] lossAtStart = {281.7, 3.7162668752819443, 3.705013398705586, 3.694946869702178,
                3.2902014302157814, 4089.41650985894};
        Lbfgs lbfgs = new Lbfgs(new LbfgsConfig(0.5, 7, 8, 1e-7, 1e-9, 3));
        double[] x = start();
        for (int s = 0; s < points.length; s++) {
            StepOutcome outcome = lbfgs.step(new Rosenbrock(), x);
            assertEquals(lossAtStart[s], outcome.lossAtStart(), 1e-6 * Math.max(1, lossAtStart[s]), "loss, step " + s);
            assertArrayEquals(points[s], x, 1e-6, "point after step " + s);
            assertEquals(7L * (s + 1), lbfgs.evaluations(), "evaluations after step " + s);
            assertTrue(lbfgs.historyLength() <= 3, "history is capped at 3");
        }
    }

    @Test
    void adamFollowsPytorch() {
        Adam adam = new Adam(AdamConfig.withLearningRate(0.05));
        double[] x = start();
        Rosenbrock f = new Rosenbrock();
        for (int s = 0; s < 25; s++) {
            StepOutcome outcome = adam.step(f, x);
            assertFalse(outcome.stationary());
        }
        assertArrayEquals(new double[] {-0.4872815885018133, 0.2605977357200548, 0.2965562995670088,
                -0.10296446357128282}, x, 1e-12);
        assertEquals(25, adam.evaluations());
    }

    @Test
    void lbfgsStallsOnTheChangeToleranceLikePytorch() {
        // f = 0.5 x'Ax - 1'x, A = diag(1..6), from 0. PyTorch stops moving once g'd > -1e-9, with the gradient
        // still at 1.1e-5: each later step costs one evaluation and returns from the same point.
        FlatObjective quadratic = new FlatObjective() {
            @Override
            public int dimension() {
                return 6;
            }

            @Override
            public double evaluate(double[] x, double[] g) {
                double f = 0;
                for (int i = 0; i < 6; i++) {
                    g[i] = (i + 1) * x[i] - 1;
                    f += 0.5 * (i + 1) * x[i] * x[i] - x[i];
                }
                return f;
            }
        };
        Lbfgs lbfgs = new Lbfgs(LbfgsConfig.pytorchDefaults());
        double[] x = new double[6];
        assertFalse(lbfgs.step(quadratic, x).stationary());
        double[] expected = {0.9999979885872459, 0.4999997037663743, 0.3333358319042399, 0.24999712580917066,
                0.1999984129236407, 0.16666559483166454};
        assertArrayEquals(expected, x, 1e-9);
        assertEquals(11, lbfgs.evaluations());
        for (int s = 0; s < 3; s++) {
            StepOutcome outcome = lbfgs.step(quadratic, x);
            assertTrue(outcome.stationary(), "step " + s + " does not move");
            assertEquals(1, outcome.evaluations());
            assertArrayEquals(expected, x, 0.0);
        }
    }

    @Test
    void settingsAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> new LbfgsConfig(0, 20, 25, 1e-7, 1e-9, 100));
        assertThrows(IllegalArgumentException.class, () -> new LbfgsConfig(1, 0, 25, 1e-7, 1e-9, 100));
        assertThrows(IllegalArgumentException.class, () -> new LbfgsConfig(1, 20, 25, 1e-7, 1e-9, 0));
        assertThrows(IllegalArgumentException.class, () -> new AdamConfig(0.1, 1.0, 0.999, 1e-8));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Lbfgs(LbfgsConfig.pytorchDefaults()).step(new Rosenbrock(), new double[3]));
        assertTrue(e.getMessage().contains("3 entries"), e.getMessage());
    }
}
