package org.dpdl4j.optim;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nd4j.linalg.indexing.NDArrayIndex.all;
import static org.nd4j.linalg.indexing.NDArrayIndex.interval;
import static org.nd4j.linalg.indexing.NDArrayIndex.point;

class PerExampleGradientsTest {

    /** name, hidden activation, output activation, loss, layer sizes (input first). */
    static Stream<Arguments> models() {
        return Stream.of(
                Arguments.of("softmax regression", Activation.IDENTITY, Activation.SOFTMAX, LossFunction.MCXENT, new int[]{7, 4}),
                Arguments.of("logistic regression", Activation.IDENTITY, Activation.SIGMOID, LossFunction.XENT, new int[]{9, 1}),
                Arguments.of("least squares", Activation.IDENTITY, Activation.IDENTITY, LossFunction.MSE, new int[]{6, 2}),
                Arguments.of("1 hidden relu", Activation.RELU, Activation.SOFTMAX, LossFunction.MCXENT, new int[]{8, 6, 3}),
                Arguments.of("2 hidden tanh", Activation.TANH, Activation.SOFTMAX, LossFunction.MCXENT, new int[]{8, 6, 5, 3}),
                Arguments.of("3 hidden sigmoid", Activation.SIGMOID, Activation.SOFTMAX, LossFunction.NEGATIVELOGLIKELIHOOD, new int[]{5, 6, 5, 4, 3}),
                Arguments.of("2 hidden elu, L2 loss", Activation.ELU, Activation.IDENTITY, LossFunction.L2, new int[]{5, 7, 6, 2}),
                Arguments.of("1 hidden softplus, hinge", Activation.SOFTPLUS, Activation.IDENTITY, LossFunction.HINGE, new int[]{5, 7, 2}),
                Arguments.of("2 hidden leaky relu, L1", Activation.LEAKYRELU, Activation.TANH, LossFunction.L1, new int[]{5, 7, 6, 3}),
                Arguments.of("1 hidden swish, KL", Activation.SWISH, Activation.SOFTMAX, LossFunction.KL_DIVERGENCE, new int[]{6, 5, 3}));
    }

    private static INDArray labelsFor(LossFunction loss, DataType type, long b, int k) {
        if (loss == LossFunction.MSE || loss == LossFunction.L2 || loss == LossFunction.L1) {
            return TestNetworks.features(type, 99, b, k);
        }
        if (loss == LossFunction.HINGE) {
            return TestNetworks.oneHot(type, 98, b, k).muli(2).subi(1);
        }
        if (loss == LossFunction.KL_DIVERGENCE) {
            return Nd4j.rand(type, b, k).addi(0.1).diviColumnVector(Nd4j.rand(type, b, k).addi(0.1).sum(1).reshape(b, 1));
        }
        return TestNetworks.oneHot(type, 97, b, k);
    }

    @ParameterizedTest(name = "{0}, double")
    @MethodSource("models")
    void matchesBatchOfOneOracleInDouble(String name, Activation hidden, Activation out, LossFunction loss, int[] sizes) {
        check(DataType.DOUBLE, 1e-10, hidden, out, loss, sizes);
    }

    @ParameterizedTest(name = "{0}, float")
    @MethodSource("models")
    void matchesBatchOfOneOracleInFloat(String name, Activation hidden, Activation out, LossFunction loss, int[] sizes) {
        check(DataType.FLOAT, 1e-5, hidden, out, loss, sizes);
    }

    private static void check(DataType type, double tol, Activation hidden, Activation out, LossFunction loss, int[] sizes) {
        MultiLayerNetwork net = TestNetworks.mlp(type, 12, hidden, out, loss, new Sgd(0.1), sizes);
        int b = 11;
        INDArray x = TestNetworks.features(type, 5, b, sizes[0]);
        INDArray y = labelsFor(loss, type, b, sizes[sizes.length - 1]);
        INDArray truth = PerExampleGradientOracle.perExampleGradients(net, x, y);
        double median = truth.norm2(1).medianNumber().doubleValue();
        for (double clip : new double[]{Double.POSITIVE_INFINITY, median, median / 10}) {
            PerExampleGradientOracle.Comparison c = PerExampleGradientOracle.compare(net, x, y, clip);
            assertTrue(c.maxNormRelativeError() < tol, "per-example norms off by " + c.maxNormRelativeError() + " at C=" + clip);
            assertTrue(c.sumRelativeError() < tol, "clipped sum off by " + c.sumRelativeError() + " at C=" + clip);
        }
    }

    @Test
    void stackedModelsWithPaddingEqualEachModelAlone() {
        DataType type = DataType.DOUBLE;
        int n = 4, b = 6, nIn = 5, k = 3;
        MultiLayerNetwork net = TestNetworks.mlp(type, 3, Activation.TANH, nIn, 7, k);
        PerExampleGradients engine = PerExampleGradients.of(net);
        long p = net.numParams();
        INDArray params = Nd4j.rand(type, n, p).subi(0.5);
        INDArray x = Nd4j.rand(type, n, b, nIn);
        INDArray y = Nd4j.zeros(type, n, b, k);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < b; j++) {
                y.putScalar(new long[]{i, j, (i + j) % k}, 1.0);
            }
        }
        int[] real = {6, 3, 0, 5};
        INDArray mask = Nd4j.zeros(type, n, b);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < real[i]; j++) {
                mask.putScalar(i, j, 1.0);
            }
        }
        INDArray grad = Nd4j.create(type, n, p);
        double clip = 0.3;
        ClippedBatch stacked = engine.clippedSum(params, x, y, mask, clip, grad);
        for (int i = 0; i < n; i++) {
            INDArray alone = Nd4j.zeros(type, 1, p);
            double lossAlone = 0;
            if (real[i] > 0) {
                INDArray xi = x.get(point(i), interval(0, real[i]), all()).dup();
                INDArray yi = y.get(point(i), interval(0, real[i]), all()).dup();
                ClippedBatch single = engine.clippedSum(params.getRow(i, true).dup(), xi, yi, null, clip, alone);
                lossAlone = single.lossSums().getDouble(0);
                INDArray stackedNorms = stacked.norms().getRow(i).get(interval(0, real[i]));
                assertTrue(stackedNorms.equalsWithEps(single.norms(), 1e-12));
            }
            assertTrue(grad.getRow(i, true).equalsWithEps(alone, 1e-12), "model " + i + " differs from its own pass");
            assertEquals(lossAlone, stacked.lossSums().getDouble(i), 1e-10);
        }
        assertEquals(0.0, stacked.norms().getRow(2).sumNumber().doubleValue(), 0.0, "padding has zero norm");
    }

    @Test
    void everyClippedExampleHasNormAtMostC() {
        MultiLayerNetwork net = TestNetworks.mlp(DataType.DOUBLE, 4, Activation.RELU, 10, 8, 4);
        INDArray x = TestNetworks.features(DataType.DOUBLE, 1, 32, 10).muli(5);
        INDArray y = TestNetworks.oneHot(DataType.DOUBLE, 2, 32, 4);
        INDArray truth = PerExampleGradientOracle.perExampleGradients(net, x, y);
        double clip = truth.norm2(1).minNumber().doubleValue() / 2;
        INDArray grad = Nd4j.create(DataType.DOUBLE, 1, net.numParams());
        ClippedBatch batch = PerExampleGradients.of(net).clippedSum(net.params(), x, y, null, clip, grad);
        assertEquals(32, batch.clippedCount());
        INDArray clippedNorms = batch.norms().mul(batch.clipFactors());
        assertArrayEquals(new double[32], clippedNorms.sub(clip).toDoubleVector(), 1e-12);
        assertTrue(grad.norm2Number().doubleValue() <= 32 * clip + 1e-9);
    }
    @Test
    void suppliedFeatureNormsGiveTheSameNormsAndSum() {
        MultiLayerNetwork net = TestNetworks.mlp(DataType.DOUBLE, 4, Activation.TANH, 10, 8, 4);
        INDArray x = TestNetworks.features(DataType.DOUBLE, 1, 16, 10);
        INDArray y = TestNetworks.oneHot(DataType.DOUBLE, 2, 16, 4);
        PerExampleGradients engine = PerExampleGradients.of(net);
        INDArray computed = Nd4j.create(DataType.DOUBLE, 1, net.numParams());
        INDArray supplied = Nd4j.create(DataType.DOUBLE, 1, net.numParams());
        ClippedBatch a = engine.clippedSum(net.params(), x, y, null, 0.5, computed);
        INDArray xNormsSq = x.mul(x).sum(1).reshape(16, 1);
        INDArray before = xNormsSq.dup();
        ClippedBatch b = engine.clippedSum(net.params(), x, y, null, xNormsSq, 0.5, supplied);
        assertArrayEquals(a.norms().toDoubleVector(), b.norms().toDoubleVector(), 1e-12);
        assertArrayEquals(computed.toDoubleVector(), supplied.toDoubleVector(), 1e-12);
        assertEquals(before, xNormsSq, "the caller's norms are left as they were");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> engine.clippedSum(net.params(), x, y, null, Nd4j.ones(DataType.DOUBLE, 15), 0.5, supplied));
        assertTrue(e.getMessage().contains("one squared norm per example"), e.getMessage());
    }

    @Test
    void parameterArraysAreToldApartWhenTheyAlternate() {
        // The engine keeps layer views of the arrays it has seen; a different array must never get another's views.
        MultiLayerNetwork net = TestNetworks.mlp(DataType.DOUBLE, 4, Activation.RELU, 10, 8, 4);
        MultiLayerNetwork other = TestNetworks.mlp(DataType.DOUBLE, 5, Activation.RELU, 10, 8, 4);
        INDArray x = TestNetworks.features(DataType.DOUBLE, 1, 8, 10);
        INDArray y = TestNetworks.oneHot(DataType.DOUBLE, 2, 8, 4);
        PerExampleGradients engine = PerExampleGradients.of(net);
        for (MultiLayerNetwork m : new MultiLayerNetwork[]{net, other, net, other}) {
            INDArray grad = Nd4j.create(DataType.DOUBLE, 1, m.numParams());
            engine.clippedSum(m.params(), x, y, null, Double.POSITIVE_INFINITY, grad);
            INDArray truth = PerExampleGradientOracle.perExampleGradients(m, x, y).sum(0);
            assertArrayEquals(truth.toDoubleVector(), grad.toDoubleVector(), 1e-10);
        }
    }
    @Test
    void stackedBatchesCarryFeatureNormsThatChangeNothing() {
        // NodeBatches computes every example's feature norm once and gathers it with each padded batch.
        MultiLayerNetwork net = TestNetworks.mlp(DataType.FLOAT, 4, Activation.RELU, 10, 8, 4);
        java.util.List<org.dpdl4j.runtime.NodeData> nodes = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            nodes.add(new org.dpdl4j.runtime.NodeData(TestNetworks.features(DataType.FLOAT, 10 + i, 9, 10),
                    TestNetworks.oneHot(DataType.FLOAT, 20 + i, 9, 4)));
        }
        org.dpdl4j.runtime.PaddedBatch batch = new org.dpdl4j.runtime.NodeBatches(nodes, DataType.FLOAT)
                .gather(new int[][]{{0, 3, 5}, {1}, {2, 4, 6, 8}});
        INDArray params = Nd4j.tile(net.params().reshape(1, net.numParams()), 3, 1);
        PerExampleGradients engine = PerExampleGradients.of(net);
        INDArray with = Nd4j.create(DataType.FLOAT, 3, net.numParams());
        INDArray without = Nd4j.create(DataType.FLOAT, 3, net.numParams());
        ClippedBatch a = engine.clippedSum(params, batch.features(), batch.labels(), batch.mask(), batch.featureSquaredNorms(), 0.3, with);
        ClippedBatch b = engine.clippedSum(params, batch.features(), batch.labels(), batch.mask(), 0.3, without);
        assertEquals(b.norms(), a.norms());
        assertEquals(without, with);
        assertEquals(0.0, batch.featureSquaredNorms().getDouble(1, 3), 0.0, "padding has norm 0");
    }
}
