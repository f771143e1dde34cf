package org.dpdl4j.attacks.inversion;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.function.Function;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackModels;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.CaseScorer;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.InputNormalization;
import org.dpdl4j.attacks.MnistTestSet;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.mnist.PixelScaling;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * Oracle 4: the median PSNR over a set of images does not increase with the noise added to the observed
 * gradient (std 0, 1e-3, 1e-2, 1e-1, 1 times the gradient RMS of each image). Kept small: eight images, the
 * optimisation attack on a model where it converges within 100 steps, and the analytic attack on an MLP.
 */
class NoiseMonotonicityTest {
    private static final double[] RELATIVE_NOISE = {0, 1e-3, 1e-2, 1e-1, 1};
    private static final int IMAGES = 8;

    @Test
    void iDlgOnSoftmaxRegressionDegradesWithNoise() {
        MultiLayerNetwork net = AttackModels.zeroSoftmaxRegression(DataType.FLOAT);
        IdlgAttack attack = new IdlgAttack(DlgConfig.defaults().withIterations(100));
        assertMonotone("iDLG, softmax regression", net, attack::attack);
    }

    @Test
    void analyticInversionOfAnMlpDegradesWithNoise() {
        MultiLayerNetwork net = AttackModels.mlp(128, Activation.RELU, DataType.FLOAT);
        assertMonotone("analytic, ReLU MLP", net, new AnalyticInversion()::attack);
    }

    private static void assertMonotone(String name, MultiLayerNetwork net, Function<AttackCase, AttackResult> attack) {
        LabeledData mnist = MnistTestSet.load(PixelScaling.UNIT_INTERVAL);
        double[][] psnr = new double[RELATIVE_NOISE.length][IMAGES];
        for (int image = 0; image < IMAGES; image++) {
            GroundTruth truth = MnistTestSet.truth(mnist, new int[] {image}, InputNormalization.NONE, DataType.FLOAT);
            double rms = new CaseScorer(AttackModels.centralCase(net, truth, 0.0)).noiseLevel().gradientRms();
            for (int level = 0; level < RELATIVE_NOISE.length; level++) {
                psnr[level][image] = attack.apply(AttackModels.centralCase(net, truth, RELATIVE_NOISE[level] * rms))
                        .psnr();
            }
        }
        double[] medians = new double[RELATIVE_NOISE.length];
        for (int level = 0; level < medians.length; level++) {
            double[] sorted = psnr[level].clone();
            Arrays.sort(sorted);
            medians[level] = (sorted[IMAGES / 2 - 1] + sorted[IMAGES / 2]) / 2;
        }
        for (int level = 1; level < medians.length; level++) {
            assertTrue(medians[level] <= medians[level - 1], name + ": median PSNR rose from " + medians[level - 1]
                    + " to " + medians[level] + " dB at noise " + RELATIVE_NOISE[level] + " x RMS; medians "
                    + Arrays.toString(medians));
        }
        assertTrue(medians[0] >= 30, name + ": without noise the attack should recover the images, median "
                + medians[0]);
        assertTrue(medians[medians.length - 1] < medians[0] - 20, name + ": noise at the gradient RMS should cost"
                + " more than 20 dB, medians " + Arrays.toString(medians));
    }
}
