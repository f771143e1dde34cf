package org.dpdl4j.optim;

import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The host engine of float32 dense networks against the ND4J engine, which the batch-of-one oracle checks
 * ({@link PerExampleGradientsTest}): same norms, losses and clipped sums to float rounding, on both sides of the
 * threshold where a layer's products move to BLAS.
 */
class HostDenseGradientsTest {

    /** name, hidden activation, output activation, loss, layer sizes, batch sizes. */
    static Stream<Arguments> networks() {
        return Stream.of(
                Arguments.of("logistic regression (a9a-shaped)", Activation.IDENTITY, Activation.SIGMOID, LossFunction.XENT,
                        new int[]{123, 1}, new int[]{256, 1, 7}),
                Arguments.of("MNIST MLP, relu (first layer on BLAS)", Activation.RELU, Activation.SOFTMAX, LossFunction.MCXENT,
                        new int[]{784, 128, 10}, new int[]{256, 3}),
                Arguments.of("MNIST MLP, tanh", Activation.TANH, Activation.SOFTMAX, LossFunction.NEGATIVELOGLIKELIHOOD,
                        new int[]{784, 128, 10}, new int[]{200}),
                Arguments.of("wide middle layers on BLAS, the last in Java", Activation.LEAKYRELU, Activation.SOFTMAX,
                        LossFunction.MCXENT, new int[]{64, 512, 512, 10}, new int[]{64, 5}),
                Arguments.of("sigmoid layers, several binary outputs", Activation.SIGMOID, Activation.SIGMOID, LossFunction.XENT,
                        new int[]{20, 16, 4}, new int[]{33}),
                Arguments.of("squared error after tanh", Activation.RELU, Activation.TANH, LossFunction.L2,
                        new int[]{12, 9, 3}, new int[]{17}),
                Arguments.of("least squares (MSE)", Activation.IDENTITY, Activation.IDENTITY, LossFunction.MSE,
                        new int[]{30, 2}, new int[]{40}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("networks")
    void equalsTheNd4jEngineToFloatRounding(String name, Activation hidden, Activation out, LossFunction loss, int[] sizes,
                                            int[] batches) {
        MultiLayerNetwork net = TestNetworks.mlp(DataType.FLOAT, 3, hidden, out, loss, new Sgd(0.1), sizes);
        DenseNetworkSpec spec = DpModelValidator.validate(net);
        HostDenseGradients host = HostDenseGradients.of(spec);
        PerExampleGradients nd4j = new PerExampleGradients(spec);
        int k = sizes[sizes.length - 1];
        for (int b : batches) {   // one engine over varying batch sizes: scratch from a larger batch must not leak
            INDArray x = TestNetworks.features(DataType.FLOAT, 10 + b, b, sizes[0]);
            INDArray y = loss == LossFunction.L2 || loss == LossFunction.MSE
                    ? TestNetworks.features(DataType.FLOAT, 20 + b, b, k) : TestNetworks.oneHot(DataType.FLOAT, 20 + b, b, k);
            INDArray expectedSum = Nd4j.create(DataType.FLOAT, 1, net.numParams());
            ClippedBatch unclipped = nd4j.clippedSum(net.params(), x, y, null, Double.MAX_VALUE, expectedSum);
            double median = unclipped.norms().medianNumber().doubleValue();
            for (double clip : new double[]{Double.POSITIVE_INFINITY, median, median / 10}) {
                for (boolean supplyNorms : new boolean[]{false, true}) {
                    INDArray xNorms = supplyNorms ? x.mul(x).sum(1) : null;
                    ClippedBatch expected = nd4j.clippedSum(net.params(), x, y, null, xNorms, clip, expectedSum);
                    INDArray gotSum = Nd4j.create(DataType.FLOAT, 1, net.numParams());
                    ClippedBatch got = host.sumClipped(net.params(), x, y, xNorms, clip, gotSum);
                    String where = name + ", batch " + b + ", C = " + clip + (supplyNorms ? ", norms supplied" : "");
                    assertClose(expected.lossSums().getDouble(0), got.lossSums().getDouble(0), 1e-5, "loss sum, " + where);
                    if (Double.isInfinite(clip)) {
                        assertNull(got.norms(), where);
                    } else {
                        double[] en = expected.norms().toDoubleVector();
                        double[] gn = got.norms().toDoubleVector();
                        for (int i = 0; i < b; i++) {
                            assertClose(en[i], gn[i], 1e-5, "norm of example " + i + ", " + where);
                        }
                    }
                    double err = gotSum.sub(expectedSum).norm2Number().doubleValue();
                    double scale = expectedSum.norm2Number().doubleValue();
                    assertTrue(err <= 2e-5 * scale, "clipped sum off by " + err / scale + " relative, " + where);
                }
            }
        }
    }

    @Test
    void layersWithoutBiasLeaveTheirBiasTermOutOfTheNorm() {
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(4).dataType(DataType.FLOAT)
                .weightInit(WeightInit.XAVIER).list()
                .layer(new DenseLayer.Builder().nIn(10).nOut(8).hasBias(false).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nIn(8).nOut(3).hasBias(false).activation(Activation.SOFTMAX).build())
                .build());
        net.init();
        DenseNetworkSpec spec = DpModelValidator.validate(net);
        INDArray x = TestNetworks.features(DataType.FLOAT, 1, 9, 10);
        INDArray y = TestNetworks.oneHot(DataType.FLOAT, 2, 9, 3);
        INDArray expectedSum = Nd4j.create(DataType.FLOAT, 1, net.numParams());
        INDArray gotSum = Nd4j.create(DataType.FLOAT, 1, net.numParams());
        ClippedBatch expected = new PerExampleGradients(spec).clippedSum(net.params(), x, y, null, 0.3, expectedSum);
        ClippedBatch got = HostDenseGradients.of(spec).sumClipped(net.params(), x, y, null, 0.3, gotSum);
        double[] en = expected.norms().toDoubleVector();
        double[] gn = got.norms().toDoubleVector();
        for (int i = 0; i < en.length; i++) {
            assertClose(en[i], gn[i], 1e-5, "norm of example " + i);
        }
        assertTrue(gotSum.sub(expectedSum).norm2Number().doubleValue() <= 2e-5 * expectedSum.norm2Number().doubleValue());
    }

    @Test
    void inputsOfAnotherTypeOrLayoutAreReadAsTheirValues() {
        MultiLayerNetwork net = TestNetworks.mlp(DataType.FLOAT, 5, Activation.RELU, 6, 5, 3);
        DenseNetworkSpec spec = DpModelValidator.validate(net);
        HostDenseGradients host = HostDenseGradients.of(spec);
        INDArray x = TestNetworks.features(DataType.FLOAT, 1, 8, 6);
        INDArray y = TestNetworks.oneHot(DataType.FLOAT, 2, 8, 3);
        INDArray plain = Nd4j.create(DataType.FLOAT, 1, net.numParams());
        host.sumClipped(net.params(), x, y, null, 0.5, plain);
        INDArray other = Nd4j.create(DataType.FLOAT, 1, net.numParams());
        host.sumClipped(net.params(), x.castTo(DataType.DOUBLE).dup('f'), y.castTo(DataType.DOUBLE), null, 0.5, other);
        assertEquals(0.0, plain.sub(other).amaxNumber().doubleValue(), 0.0, "same values, same result");
    }

    @Test
    void anEmptyBatchGivesAZeroSum() {
        MultiLayerNetwork net = TestNetworks.mlp(DataType.FLOAT, 5, Activation.RELU, 6, 5, 3);
        INDArray grad = Nd4j.ones(DataType.FLOAT, 1, net.numParams());
        ClippedBatch got = HostDenseGradients.of(DpModelValidator.validate(net))
                .sumClipped(net.params(), Nd4j.create(DataType.FLOAT, 0, 6), Nd4j.create(DataType.FLOAT, 0, 3), null, 1.0, grad);
        assertEquals(0.0, grad.amaxNumber().doubleValue());
        assertEquals(0, got.norms().length());
        assertEquals(0.0, got.lossSums().getDouble(0));
    }

    @Test
    void theEngineIsChosenForFloatNetworksWithKernelsOnly() {
        assertInstanceOf(HostDenseGradients.class,
                ExampleGradients.of(TestNetworks.mlp(DataType.FLOAT, 1, Activation.TANH, 6, 5, 3)));
        assertInstanceOf(PerExampleGradients.class,
                ExampleGradients.of(TestNetworks.mlp(DataType.DOUBLE, 1, Activation.TANH, 6, 5, 3)), "double precision");
        assertInstanceOf(PerExampleGradients.class,
                ExampleGradients.of(TestNetworks.mlp(DataType.FLOAT, 1, Activation.ELU, 6, 5, 3)), "no kernel for ELU");
        assertInstanceOf(PerExampleGradients.class, ExampleGradients.of(TestNetworks.mlp(DataType.FLOAT, 1, Activation.RELU,
                Activation.SOFTMAX, LossFunction.KL_DIVERGENCE, new Sgd(0.1), 6, 5, 3)), "no kernel for the KL loss");
    }

    private static void assertClose(double expected, double actual, double relative, String what) {
        assertEquals(expected, actual, relative * Math.max(1e-3, Math.abs(expected)), what);
    }
}
