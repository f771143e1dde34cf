package org.dpdl4j.attacks.inversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackModels;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.InputNormalization;
import org.dpdl4j.attacks.MnistTestSet;
import org.dpdl4j.attacks.StopReason;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.mnist.PixelScaling;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * Oracle 1: softmax regression on one real MNIST image without noise. The analytic inversion is exact; the
 * optimisation attack (300 L-BFGS steps) recovers the image from the model at its zero initialisation.
 */
class SoftmaxRegressionOracleTest {

    @Test
    void analyticInversionIsExactInDouble() {
        LabeledData mnist = MnistTestSet.load(PixelScaling.UNIT_INTERVAL);
        MultiLayerNetwork net = AttackModels.softmaxRegression(DataType.DOUBLE);
        AttackCase central = AttackModels.centralCase(net,
                MnistTestSet.truth(mnist, new int[] {0}, InputNormalization.NONE, DataType.DOUBLE), 0.0);
        AttackResult result = new AnalyticInversion().attack(central);
        assertTrue(result.mse() < 1e-10, "analytic MSE " + result.mse());
        assertTrue(result.allLabelsCorrect(), "iDLG label from the output bias");
        assertEquals(StopReason.CLOSED_FORM, result.stopReason());
        assertTrue(result.finalMatchingLoss() < 1e-20, "matching loss at the exact answer " + result.finalMatchingLoss());
    }

    @Test
    void analyticInversionIsExactFromAFedAvgUpdateOfANormalisedModel() {
        LabeledData mnist = MnistTestSet.load(PixelScaling.STANDARDIZED);
        MultiLayerNetwork net = AttackModels.softmaxRegression(DataType.DOUBLE);
        AttackCase server = AttackModels.fedAvgCase(net,
                MnistTestSet.truth(mnist, new int[] {7}, InputNormalization.MNIST, DataType.DOUBLE), 0.05);
        AttackResult result = new AnalyticInversion().attack(server);
        assertTrue(result.mse() < 1e-10, "analytic MSE after de-normalising " + result.mse());
        assertTrue(result.allLabelsCorrect());
    }

    @Test
    void gradientMatchingRecoversTheImageFromTheZeroInitialisedModel() {
        LabeledData mnist = MnistTestSet.load(PixelScaling.UNIT_INTERVAL);
        MultiLayerNetwork net = AttackModels.zeroSoftmaxRegression(DataType.FLOAT);
        AttackCase central = AttackModels.centralCase(net,
                MnistTestSet.truth(mnist, new int[] {0}, InputNormalization.NONE, DataType.FLOAT), 0.0);
        AttackResult result = new IdlgAttack(DlgConfig.defaults()).attack(central);
        assertTrue(result.psnr() >= 30, "iDLG (300 L-BFGS steps) PSNR " + result.psnr());
        assertTrue(result.allLabelsCorrect());
        assertTrue(result.snapshots().get(0).psnr() < 12, "the random start is far from the image");
        assertEquals(31, result.snapshots().size(), "snapshots at 0, 10, ..., 300");
    }
}
