package org.dpdl4j.optim;

import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInit;
import org.dpdl4j.optim.layers.ExampleLayerRegistry;
import org.dpdl4j.optim.layers.LayeredGradients;
import org.dpdl4j.optim.layers.NormStrategy;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How far above C a clipped example's contribution can land because every engine computes norms and clip factors in
 * float32, the figure the README's "What the guarantee assumes" gives (about 1e-6 relative, bounded here by
 * {@value #EXCESS_BOUND}). Every example clipped, the example's true norm (its batch-of-one gradient in double precision,
 * from the same float parameters and inputs) over the norm the engine clipped by, in a batch; and for the single-model
 * engines also the double-precision norm of what the engine hands back for that example alone, over C. An engine whose
 * norms drift (a reduced-precision product, a lost term) fails here before it can under-report a run.
 */
class ClippedNormExcessTest {
    /** Ten times the largest excess measured on these networks (about 1e-6: the convolution and stacked norms). */
    static final double EXCESS_BOUND = 1e-5;

    @Test
    void denseEnginesClipWithinTheBound() {
        MultiLayerNetwork net = TestNetworks.mlp(DataType.FLOAT, 3, Activation.RELU, 784, 128, 10);
        MultiLayerNetwork reference = TestNetworks.mlp(DataType.DOUBLE, 3, Activation.RELU, 784, 128, 10);
        DenseNetworkSpec spec = DpModelValidator.validate(net);
        assertWithinBound("host engine, MNIST MLP", net, reference, HostDenseGradients.of(spec), 784, 256);
        assertWithinBound("ND4J engine, MNIST MLP", net, reference, new PerExampleGradients(spec), 784, 256);
    }

    @Test
    void convolutionEnginesClipWithinTheBound() {
        MultiLayerNetwork net = cnn(DataType.FLOAT);
        MultiLayerNetwork reference = cnn(DataType.DOUBLE);
        for (NormStrategy strategy : new NormStrategy[]{NormStrategy.GHOST, NormStrategy.MATERIALISED}) {
            assertWithinBound("tanh CNN, " + strategy + " norms", net, reference,
                    LayeredGradients.of(net, ExampleLayerRegistry.standard(strategy)), 784, 32);
        }
    }

    @Test
    void stackedNodeModelsClipWithinTheBound() {
        int n = 3;
        int b = 48;
        MultiLayerNetwork net = TestNetworks.mlp(DataType.FLOAT, 5, Activation.TANH, 784, 64, 10);
        MultiLayerNetwork reference = TestNetworks.mlp(DataType.DOUBLE, 5, Activation.TANH, 784, 64, 10);
        INDArray rows = Nd4j.vstack(net.params(), net.params().mul(0.5f), net.params().mul(-2f));
        INDArray x = TestNetworks.features(DataType.FLOAT, 7, (long) n * b, 784).reshape(n, b, 784);
        INDArray y = TestNetworks.oneHot(DataType.FLOAT, 8, (long) n * b, 10).reshape(n, b, 10);
        PerExampleGradients engine = new PerExampleGradients(DpModelValidator.validate(net));
        INDArray sums = Nd4j.create(DataType.FLOAT, n, net.numParams());
        double clip = 1e-3;   // below every example's norm: all are clipped
        ClippedBatch batch = engine.clippedSum(rows, x, y, null, clip, sums);
        double worst = 0;
        for (int node = 0; node < n; node++) {
            reference.setParams(rows.getRow(node, true).castTo(DataType.DOUBLE));
            double[] truth = trueNorms(reference, x.get(NDArrayIndex.point(node)),
                    y.get(NDArrayIndex.point(node)));
            double[] used = batch.norms().getRow(node).toDoubleVector();
            for (int i = 0; i < b; i++) {
                assertTrue(used[i] > clip, "every example clipped");
                worst = Math.max(worst, truth[i] / used[i] - 1);
            }
        }
        assertTrue(worst <= EXCESS_BOUND, "stacked node models: a clipped example lands " + worst + " above C");
    }

    private static void assertWithinBound(String what, MultiLayerNetwork net, MultiLayerNetwork reference,
                                          ExampleGradients engine, int nIn, int b) {
        reference.setParams(net.params().castTo(DataType.DOUBLE));
        INDArray x = TestNetworks.features(DataType.FLOAT, 11, b, nIn);
        INDArray y = TestNetworks.oneHot(DataType.FLOAT, 12, b, 10);
        double[] truth = trueNorms(reference, x, y);
        double clip = 1e-3 * min(truth);   // every example clipped
        INDArray sum = Nd4j.create(DataType.FLOAT, 1, net.numParams());
        double[] used = engine.sumClipped(net.params(), x, y, null, clip, sum).norms().toDoubleVector();
        double inBatch = 0;
        double alone = 0;
        for (int i = 0; i < b; i++) {
            inBatch = Math.max(inBatch, truth[i] / used[i] - 1);
            INDArray one = Nd4j.create(DataType.FLOAT, 1, net.numParams());
            engine.sumClipped(net.params(), x.getRow(i, true).dup(), y.getRow(i, true).dup(), null, clip, one);
            alone = Math.max(alone, one.castTo(DataType.DOUBLE).norm2Number().doubleValue() / clip - 1);
        }
        assertTrue(inBatch <= EXCESS_BOUND, what + ": a clipped example's true norm is " + inBatch
                + " above the norm it was clipped by");
        assertTrue(alone <= EXCESS_BOUND, what + ": an example's clipped gradient is " + alone + " above C");
    }

    private static double[] trueNorms(MultiLayerNetwork reference, INDArray x, INDArray y) {
        return PerExampleGradientOracle.perExampleGradients(reference, x.castTo(DataType.DOUBLE), y.castTo(DataType.DOUBLE))
                .norm2(1).toDoubleVector();
    }

    private static double min(double[] v) {
        double m = Double.POSITIVE_INFINITY;
        for (double d : v) {
            m = Math.min(m, d);
        }
        return m;
    }

    /** The tanh CNN of the DP-MNIST setting (Tramer and Boneh), at half its width to keep the oracle quick. */
    private static MultiLayerNetwork cnn(DataType type) {
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(11).dataType(type)
                .updater(new Sgd(0.1)).weightInit(WeightInit.XAVIER).list()
                .layer(new ConvolutionLayer.Builder(8, 8).nOut(8).stride(2, 2).convolutionMode(ConvolutionMode.Same)
                        .activation(Activation.TANH).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(1, 1).build())
                .layer(new ConvolutionLayer.Builder(4, 4).nOut(16).stride(2, 2).convolutionMode(ConvolutionMode.Truncate)
                        .activation(Activation.TANH).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(1, 1).build())
                .layer(new DenseLayer.Builder().nOut(32).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(10).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(28, 28, 1)).build());
        net.init();
        return net;
    }
}
