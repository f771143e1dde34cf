package org.dpdl4j.attacks.inversion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackModels;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.CaseScorer;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.InputNormalization;
import org.dpdl4j.attacks.MnistTestSet;
import org.dpdl4j.attacks.network.LayerGradient;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.mnist.PixelScaling;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The least-squares reading of the first layer: exact without noise, equal to its formula computed by hand from
 * the observation, and much closer than the single largest row when the observation is noisy.
 */
class LeastSquaresInversionTest {

    @Test
    void exactWithoutNoiseAndBetterThanOneRowWithNoise() {
        LabeledData mnist = MnistTestSet.load(PixelScaling.UNIT_INTERVAL);
        MultiLayerNetwork net = AttackModels.mlp(128, Activation.SIGMOID, DataType.DOUBLE);
        double singleRowError = 0;
        double leastSquaresError = 0;
        for (int image = 0; image < 4; image++) {
            GroundTruth truth = MnistTestSet.truth(mnist, new int[] {image}, InputNormalization.NONE, DataType.DOUBLE);
            AttackResult exact = AnalyticInversion.leastSquares().attack(AttackModels.centralCase(net, truth, 0.0));
            assertTrue(exact.mse() < 1e-20, "noise-free least squares is exact: MSE " + exact.mse());
            assertTrue(exact.method().contains("over 128 units"), exact.method());

            AttackCase clean = AttackModels.centralCase(net, truth, 0.0);
            double rms = new CaseScorer(clean).noiseLevel().gradientRms();
            AttackCase noisy = AttackModels.centralCase(net, truth, rms);
            AttackResult ls = AnalyticInversion.leastSquares().attack(noisy);
            double[] estimate = byHand(noisy);
            assertArrayEquals(clamp(estimate), ls.reconstruction()[0], 1e-12, "the formula, computed by hand");
            double[] x = truth.inputs().toDoubleVector();
            leastSquaresError += squaredDistance(estimate, x);
            singleRowError += squaredDistance(largestRow(noisy), x);
        }
        // Before clamping to pixels, the error is noise / ||db|| against noise / max |db|: many times smaller.
        assertTrue(leastSquaresError < singleRowError / 4, "least-squares error " + leastSquaresError
                + " against one row's " + singleRowError + " at noise = gradient RMS");
    }

    /** {@code sum_r b[r] W[:, r] / sum_r b[r]^2} with plain loops over the observation's first layer. */
    private static double[] byHand(AttackCase c) {
        List<LayerGradient> parts = c.gradientEstimate(c.target());
        double[][] w = parts.get(0).weights().castTo(DataType.DOUBLE).toDoubleMatrix();
        double[] b = parts.get(0).bias().castTo(DataType.DOUBLE).reshape(-1).toDoubleVector();
        assertEquals(128, b.length);
        double energy = 0;
        for (double v : b) {
            energy += v * v;
        }
        double[] x = new double[w.length];
        for (int i = 0; i < w.length; i++) {
            for (int r = 0; r < b.length; r++) {
                x[i] += b[r] * w[i][r];
            }
            x[i] /= energy;
        }
        return x;
    }

    /** {@code W[:, r] / b[r]} for the largest {@code |b[r]|}. */
    private static double[] largestRow(AttackCase c) {
        List<LayerGradient> parts = c.gradientEstimate(c.target());
        double[][] w = parts.get(0).weights().castTo(DataType.DOUBLE).toDoubleMatrix();
        double[] b = parts.get(0).bias().castTo(DataType.DOUBLE).reshape(-1).toDoubleVector();
        int best = 0;
        for (int r = 1; r < b.length; r++) {
            best = Math.abs(b[r]) > Math.abs(b[best]) ? r : best;
        }
        double[] x = new double[w.length];
        for (int i = 0; i < w.length; i++) {
            x[i] = w[i][best] / b[best];
        }
        return x;
    }

    private static double squaredDistance(double[] a, double[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return sum;
    }

    private static double[] clamp(double[] x) {
        return InputNormalization.NONE.toPixels(x);
    }
}
