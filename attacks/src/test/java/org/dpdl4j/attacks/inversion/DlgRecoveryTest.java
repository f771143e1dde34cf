package org.dpdl4j.attacks.inversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackModels;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.InputNormalization;
import org.dpdl4j.attacks.MnistTestSet;
import org.dpdl4j.attacks.Snapshot;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.models.DlgLeNetModel;
import org.dpdl4j.models.ImageShape;
import org.dpdl4j.models.ModelOptions;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/**
 * DLG as in its reference: the sigmoid LeNet with U(-0.5, 0.5) parameters, a digit in [0, 1], dummy input and
 * soft label optimised jointly by L-BFGS (the default plain-Java engine, through three convolutions). To keep the test fast
 * the digit is a real MNIST image averaged down to 14x14 (the network then has 12 x 4 x 4 features); the
 * full-size attack is the same code and takes about four times longer.
 */
class DlgRecoveryTest {

    @Test
    void dlgRecoversADigitAndItsLabelFromTheLeNetGradient() {
        LabeledData mnist = MnistTestSet.load(PixelScaling.UNIT_INTERVAL);
        ImageShape small = new ImageShape(1, 14, 14);
        MultiLayerNetwork lenet = DlgLeNetModel.network(small, 10, DlgLeNetModel.InputFormat.FLAT,
                ModelOptions.defaults());
        AttackResult result = new DlgAttack(DlgConfig.defaults()).attack(AttackModels.centralCase(lenet,
                halfSize(mnist, 0), 0.0));
        assertTrue(result.psnr() >= 30, "DLG on the LeNet: PSNR " + result.psnr() + " after "
                + result.timing().evaluations() + " evaluations (" + result.stopReason() + ")");
        assertTrue(result.ssim() > 0.99, "SSIM " + result.ssim());
        assertTrue(result.allLabelsCorrect(), "soft label argmax");
        assertTrue(result.method().startsWith("closed-form java"), "the default engine: " + result.method());
        Snapshot start = result.snapshots().get(0);
        assertEquals(0, start.iteration());
        assertTrue(start.psnr() < 12, "the random start is noise: " + start.psnr());
    }

    /** Test image {@code row}, each 2x2 block of pixels averaged. */
    private static GroundTruth halfSize(LabeledData mnist, int row) {
        double[] full = mnist.features().getRow(row).castTo(DataType.DOUBLE).toDoubleVector();
        double[] half = new double[14 * 14];
        for (int i = 0; i < 14; i++) {
            for (int j = 0; j < 14; j++) {
                half[i * 14 + j] = (full[2 * i * 28 + 2 * j] + full[2 * i * 28 + 2 * j + 1]
                        + full[(2 * i + 1) * 28 + 2 * j] + full[(2 * i + 1) * 28 + 2 * j + 1]) / 4;
            }
        }
        return new GroundTruth(Nd4j.create(half, new long[] {1, half.length}, DataType.FLOAT),
                new int[] {mnist.label(row)}, new ImageShape(1, 14, 14), InputNormalization.NONE);
    }
}
