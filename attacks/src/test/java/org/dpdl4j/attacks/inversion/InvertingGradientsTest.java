package org.dpdl4j.attacks.inversion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackModels;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.LabelRows;
import org.dpdl4j.attacks.MnistTestSet;
import org.dpdl4j.attacks.TestNetworks;
import org.dpdl4j.attacks.network.NetworkGradients;
import org.dpdl4j.attacks.network.TargetNetwork;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Inverting Gradients on the private tanh CNN (convolutions with max pooling), the labels of a batch read from the
 * output bias, and the choice of the strongest attack.
 */
class InvertingGradientsTest {

    @Test
    void recoversAnMnistDigitThroughTheCnnFromTheFedAvgServersView() {
        LabeledData mnist = MnistTestSet.load(PixelScaling.UNIT_INTERVAL);
        MultiLayerNetwork cnn = ModelKind.CNN.network(784, 10, ModelOptions.defaults());
        AttackCase c = AttackModels.fedAvgCase(cnn, MnistTestSet.truth(mnist, new int[] {7},
                org.dpdl4j.attacks.InputNormalization.NONE, DataType.FLOAT), 0.1);
        // 1500 iterations: at 1000 the reconstruction sits at 20 dB, on one side or the other depending on the CPU's
        // floating-point paths; the attack's own defaults run longer
        AttackResult r = new InvertingGradientsAttack(InvertingGradientsConfig.defaults().withRestarts(1)
                .withIterations(1500)).attack(c);
        assertTrue(r.psnr() >= 20, "Inverting Gradients on the CNN: PSNR " + r.psnr() + " dB, SSIM " + r.ssim());
        assertTrue(r.allLabelsCorrect(), "label from the output bias");
        assertTrue(r.method().contains("cosine"), r.method());
        assertTrue(r.snapshots().get(0).psnr() < 12, "the random start is noise: " + r.snapshots().get(0).psnr());
    }

    @Test
    void theLabelsOfABatchAreTheMostNegativeOutputBiasGradients() {
        MultiLayerNetwork net = TestNetworks.mlp(12, new int[] {7}, 6, Activation.RELU, 4, DataType.DOUBLE);
        TargetNetwork t = TargetNetwork.of(net);
        int[] classes = {4, 1, 5};
        INDArray x = Nd4j.rand(DataType.DOUBLE, 3, 12);
        INDArray g = NetworkGradients.sumOverBatch(net, x, LabelRows.of(classes, 6, DataType.DOUBLE)).divi(3);
        int[] found = LabelRecovery.recoverBatch(t, t.split(g.muli(0.4)), 3);
        Arrays.sort(found);
        assertArrayEquals(new int[] {1, 4, 5}, found);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LabelRecovery.recoverBatch(t, t.split(g), 7));
        assertTrue(e.getMessage().contains("7 examples"), e.getMessage());
    }

    @Test
    void theStrongestAttackIsExactForADenseFirstLayerWithOneExampleAndInvertingGradientsOtherwise() {
        InversionAttack exact = new AnalyticInversion();
        InversionAttack optimised = new InvertingGradientsAttack(InvertingGradientsConfig.defaults());
        StrongestAttack auto = new StrongestAttack(exact, optimised);
        GroundTruth one = truth(1);
        GroundTruth two = truth(2);
        MultiLayerNetwork mlp = AttackModels.mlp(16, Activation.RELU, DataType.FLOAT);
        MultiLayerNetwork cnn = ModelKind.CNN.network(784, 10, ModelOptions.defaults());
        assertSame(exact, auto.choose(AttackModels.fedAvgCase(mlp, one, 0.1)));
        assertSame(optimised, auto.choose(AttackModels.fedAvgCase(mlp, two, 0.1)), "a batch mixes the first layer");
        assertSame(optimised, auto.choose(AttackModels.fedAvgCase(cnn, one, 0.1)), "a convolution comes first");
        AttackResult r = auto.attack(AttackModels.fedAvgCase(mlp, one, 0.1));
        assertEquals("analytic", r.attack());
        assertTrue(r.method().startsWith("auto: analytic"), r.method());
        assertTrue(r.psnr() > 60, "exact: " + r.psnr());
    }

    @Test
    void onOtherNetworksTheStrongestAttackKeepsIdlgWhereItMatchesExactlyAndFallsBackToInvertingGradients() {
        InversionAttack idlg = new IdlgAttack(DlgConfig.defaults().withIterations(100).withSnapshotEvery(100));
        InversionAttack ig = new InvertingGradientsAttack(InvertingGradientsConfig.defaults().withIterations(30));
        StrongestAttack auto = new StrongestAttack(new AnalyticInversion(), idlg, ig);
        GroundTruth one = truth(1);
        MultiLayerNetwork lenet = ModelKind.DLG_LENET.network(784, 10, ModelOptions.defaults());
        AttackCase smooth = AttackModels.fedAvgCase(lenet, one, 0.1);
        assertSame(idlg, auto.choose(smooth), "a noise-free release of one example: iDLG first");
        AttackResult r = auto.attack(smooth);
        assertEquals("idlg", r.attack(), r.method());
        assertTrue(r.method().startsWith("auto: idlg ("), r.method());
        assertTrue(r.psnr() > 40, "DLG's sigmoid LeNet gives the input back exactly: " + r.psnr());

        AttackCase noisy = new org.dpdl4j.attacks.observe.FedAvgScenario().build(
                new org.dpdl4j.attacks.observe.ScenarioRequest(lenet, one, "server", 0.1, 1e-3, 99L, 0, Double.NaN,
                        java.util.Map.of()));
        assertSame(ig, auto.choose(noisy), "with noise a low matching loss proves nothing: Inverting Gradients");
        assertSame(ig, auto.choose(AttackModels.fedAvgCase(lenet, truth(2), 0.1)), "a batch: Inverting Gradients");

        MultiLayerNetwork cnn = ModelKind.CNN.network(784, 10, ModelOptions.defaults());
        AttackCase pooled = AttackModels.fedAvgCase(cnn, one, 0.1);
        AttackResult fallback = auto.attack(pooled);
        assertEquals("ig", fallback.attack(), fallback.method());
        assertTrue(fallback.method().contains("after idlg stalled at matching loss"), fallback.method());
        AttackResult igAlone = ig.attack(pooled);
        assertArrayEquals(igAlone.reconstruction()[0], fallback.reconstruction()[0], 0.0,
                "the fallback is Inverting Gradients' own result");
        assertTrue(fallback.timing().evaluations() > igAlone.timing().evaluations(), "the iDLG attempt's work counts");
    }

    /** {@code n} synthetic 28x28 "digits": a bar at a different place per example. */
    private static GroundTruth truth(int n) {
        INDArray x = Nd4j.zeros(DataType.FLOAT, n, 784);
        for (int e = 0; e < n; e++) {
            for (int row = 4; row < 24; row++) {
                x.putScalar(e, row * 28 + 8 + 6 * e, 1.0);
                x.putScalar(e, row * 28 + 9 + 6 * e, 1.0);
            }
        }
        int[] labels = new int[n];
        for (int e = 0; e < n; e++) {
            labels[e] = (3 * e + 1) % 10;
        }
        return new GroundTruth(x, labels, org.dpdl4j.models.ImageShape.MNIST, org.dpdl4j.attacks.InputNormalization.NONE);
    }
}
