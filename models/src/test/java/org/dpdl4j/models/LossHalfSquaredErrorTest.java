package org.dpdl4j.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.deeplearning4j.gradientcheck.GradientCheckUtil;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.activations.IActivation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.NoOp;
import org.nd4j.linalg.lossfunctions.ILossFunction;
import org.nd4j.linalg.lossfunctions.impl.LossL2;
import org.nd4j.shade.jackson.databind.ObjectMapper;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;

class LossHalfSquaredErrorTest {
    private static final ILossFunction LOSS = new LossHalfSquaredError();
    private static final double STEP = 1e-6;

    private static INDArray matrix(double[][] values) {
        return Nd4j.createFromArray(values).castTo(DataType.DOUBLE);
    }

    private static INDArray gaussian(long seed, int rows, int cols) {
        Random random = new Random(seed);
        double[][] values = new double[rows][cols];
        for (double[] row : values) {
            for (int j = 0; j < cols; j++) {
                row[j] = random.nextGaussian();
            }
        }
        return matrix(values);
    }

    @Test
    void scoreIsHalfTheSumOfSquaredResidualsPerExample() {
        INDArray labels = matrix(new double[][] {{1, 2}, {0, -1}});
        INDArray pre = matrix(new double[][] {{2, 0}, {0.5, -1}});
        // Example 0: (1^2 + 2^2)/2 = 2.5; example 1: 0.5^2/2 = 0.125.
        INDArray perExample = LOSS.computeScoreArray(labels, pre, Activation.IDENTITY.getActivationFunction(), null);
        assertArrayEquals(new long[] {2, 1}, perExample.shape());
        assertEquals(2.5, perExample.getDouble(0, 0), 1e-15);
        assertEquals(0.125, perExample.getDouble(1, 0), 1e-15);
        IActivation identity = Activation.IDENTITY.getActivationFunction();
        assertEquals(2.625, LOSS.computeScore(labels, pre, identity, null, false), 1e-15);
        assertEquals(2.625 / 2, LOSS.computeScore(labels, pre, identity, null, true), 1e-15);
    }

    @Test
    void gradientIsHalfOfDl4jL2Gradient() {
        INDArray labels = gaussian(1, 5, 3);
        INDArray pre = gaussian(2, 5, 3);
        IActivation tanh = Activation.TANH.getActivationFunction();
        INDArray ours = LOSS.computeGradient(labels, pre, tanh, null);
        INDArray l2 = new LossL2().computeGradient(labels, pre, tanh, null);
        assertTrue(ours.mul(2).equalsWithEps(l2, 1e-14), "2 * ours must equal LossL2's gradient");
        assertEquals(new LossL2().computeScore(labels, pre, tanh, null, false) / 2,
                LOSS.computeScore(labels, pre, tanh, null, false), 1e-12);
    }

    @Test
    void doesNotModifyItsInputs() {
        INDArray labels = gaussian(3, 4, 2);
        INDArray pre = gaussian(4, 4, 2);
        INDArray labelsBefore = labels.dup();
        INDArray preBefore = pre.dup();
        IActivation sigmoid = Activation.SIGMOID.getActivationFunction();
        LOSS.computeGradientAndScore(labels, pre, sigmoid, null, true);
        LOSS.computeScoreArray(labels, pre, sigmoid, null);
        assertEquals(labelsBefore, labels);
        assertEquals(preBefore, pre);
    }

    enum MaskKind { NONE, PER_EXAMPLE, PER_OUTPUT }

    @ParameterizedTest
    @EnumSource(MaskKind.class)
    void gradientMatchesCentralFiniteDifferences(MaskKind maskKind) {
        int rows = 4;
        int cols = 3;
        INDArray labels = gaussian(5, rows, cols);
        INDArray pre = gaussian(6, rows, cols);
        INDArray mask = switch (maskKind) {
            case NONE -> null;
            case PER_EXAMPLE -> matrix(new double[][] {{1}, {0}, {1}, {1}});
            case PER_OUTPUT -> matrix(new double[][] {{1, 0, 1}, {1, 1, 1}, {0, 0, 0}, {0, 1, 1}});
        };
        for (Activation activation : new Activation[] {Activation.IDENTITY, Activation.SIGMOID, Activation.TANH,
                Activation.SOFTMAX}) {
            IActivation fn = activation.getActivationFunction();
            INDArray analytic = LOSS.computeGradient(labels, pre, fn, mask);
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < cols; j++) {
                    if (mask != null && maskKind == MaskKind.PER_OUTPUT && mask.getDouble(i, j) == 0) {
                        // DL4J convention: a masked output gets no gradient. With softmax the masked score
                        // still depends on that pre-output through the normalisation, so only zero is checked.
                        assertEquals(0.0, analytic.getDouble(i, j), 0.0, activation + " masked (" + i + "," + j + ")");
                        continue;
                    }
                    double numeric = centralDifference(labels, pre, fn, mask, i, j);
                    assertEquals(numeric, analytic.getDouble(i, j), 1e-8,
                            activation + " " + maskKind + " at (" + i + "," + j + ")");
                }
            }
        }
    }

    private static double centralDifference(INDArray labels, INDArray pre, IActivation fn, INDArray mask,
                                            int i, int j) {
        INDArray plus = pre.dup();
        plus.putScalar(i, j, pre.getDouble(i, j) + STEP);
        INDArray minus = pre.dup();
        minus.putScalar(i, j, pre.getDouble(i, j) - STEP);
        return (LOSS.computeScore(labels, plus, fn, mask, false) - LOSS.computeScore(labels, minus, fn, mask, false))
                / (2 * STEP);
    }

    @Test
    void masksZeroTheMaskedScores() {
        INDArray labels = matrix(new double[][] {{1, 1}, {1, 1}});
        INDArray pre = matrix(new double[][] {{3, 1}, {1, 5}});
        IActivation identity = Activation.IDENTITY.getActivationFunction();
        INDArray perExample = LOSS.computeScoreArray(labels, pre, identity, matrix(new double[][] {{0}, {1}}));
        assertEquals(0.0, perExample.getDouble(0, 0));
        assertEquals(8.0, perExample.getDouble(1, 0), 1e-15);
        INDArray perOutput = LOSS.computeScoreArray(labels, pre, identity, matrix(new double[][] {{1, 0}, {1, 0}}));
        assertEquals(2.0, perOutput.getDouble(0, 0), 1e-15);
        assertEquals(0.0, perOutput.getDouble(1, 0), 1e-15);
    }

    @Test
    void mismatchedShapesAreRejectedWithBothShapes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LOSS.computeScore(
                gaussian(1, 3, 2), gaussian(2, 3, 4), Activation.IDENTITY.getActivationFunction(), null, true));
        assertTrue(e.getMessage().contains("[3, 2]") && e.getMessage().contains("[3, 4]"), e.getMessage());
    }

    @Test
    void survivesJsonAndEquality() throws Exception {
        ObjectMapper mapper = NeuralNetConfiguration.mapper();
        String json = mapper.writeValueAsString(LOSS);
        ILossFunction back = mapper.readValue(json, ILossFunction.class);
        assertEquals(LossHalfSquaredError.class, back.getClass());
        assertEquals(LOSS, back);
        assertEquals(LOSS.hashCode(), back.hashCode());
    }

    @Test
    void leastSquaresNetworkPassesDl4jGradientCheck() {
        DataType previous = Nd4j.dataType();
        DataType previousFloat = Nd4j.defaultFloatingPointType();
        Nd4j.setDefaultDataTypes(DataType.DOUBLE, DataType.DOUBLE);
        try {
            runGradientCheck();
        } finally {
            Nd4j.setDefaultDataTypes(previous, previousFloat);
        }
    }

    private static void runGradientCheck() {
        ModelOptions options = ModelOptions.defaults().withDataType(DataType.DOUBLE).withUpdater(new NoOp());
        MultiLayerConfiguration conf = LeastSquaresModel.configuration(4, 2, true, options);
        assertTrue(((OutputLayer) conf.getConf(0).getLayer()).getLossFn() instanceof LossHalfSquaredError);
        MultiLayerNetwork net = new MultiLayerNetwork(conf);
        net.init();
        INDArray features = gaussian(7, 6, 4);
        INDArray labels = gaussian(8, 6, 2);
        boolean ok = GradientCheckUtil.checkGradients(new GradientCheckUtil.MLNConfig().net(net)
                .input(features).labels(labels).epsilon(1e-6).maxRelError(1e-6).minAbsoluteError(1e-10));
        assertTrue(ok, "DL4J gradient check of the least-squares network");
    }

    @Test
    void networkScoreIsMeanHalfSquaredErrorOfTheLinearModel() {
        ModelOptions options = ModelOptions.defaults().withDataType(DataType.DOUBLE);
        MultiLayerNetwork net = new MultiLayerNetwork(LeastSquaresModel.configuration(3, 1, true, options));
        net.init();
        INDArray features = gaussian(9, 5, 3);
        INDArray labels = gaussian(10, 5, 1);
        INDArray w = net.getParam("0_W");
        INDArray b = net.getParam("0_b");
        INDArray residual = features.mmul(w).addRowVector(b).sub(labels);
        double expected = residual.mul(residual).sumNumber().doubleValue() / 2 / 5;
        net.setInput(features);
        net.setLabels(labels);
        net.computeGradientAndScore();
        assertEquals(expected, net.score(), 1e-12);
        // DL4J's gradient is the sum over the batch (its updater divides by the batch size): W: X^T r, b: sum(r).
        INDArray gradW = net.gradient().getGradientFor("0_W");
        assertTrue(gradW.equalsWithEps(features.transpose().mmul(residual), 1e-12), gradW.toString());
        assertEquals(residual.sumNumber().doubleValue(), net.gradient().getGradientFor("0_b").getDouble(0), 1e-12);
    }
}
