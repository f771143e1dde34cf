package org.dpdl4j.optim.layers;

import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.graph.ElementWiseVertex;
import org.deeplearning4j.nn.conf.graph.MergeVertex;
import org.deeplearning4j.nn.conf.graph.StackVertex;
import org.deeplearning4j.nn.conf.graph.SubsetVertex;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ActivationLayer;
import org.deeplearning4j.nn.conf.layers.BatchNormalization;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.DropoutLayer;
import org.deeplearning4j.nn.conf.layers.EmbeddingLayer;
import org.deeplearning4j.nn.conf.layers.LossLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.conf.layers.ZeroPaddingLayer;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInit;
import org.dpdl4j.nn.UnsupportedModelException;
import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.ExampleGradients;
import org.dpdl4j.optim.PerExampleGradientOracle;
import org.dpdl4j.optim.PerExampleGradientOracle.Comparison;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every layer type of the standard registry against DL4J's own backpropagation on one example at a time, in double
 * precision: per-example norms and the clipped sum agree to 1e-10 relative, for clip norms that clip every example
 * and none.
 */
class LayeredGradientsTest {
    private static final double TOLERANCE = 1e-10;

    static Stream<Arguments> convolutions() {
        List<Arguments> cases = new ArrayList<>();
        for (NormStrategy strategy : new NormStrategy[]{NormStrategy.GHOST, NormStrategy.MATERIALISED}) {
            cases.add(Arguments.of("truncate, stride 1", ConvolutionMode.Truncate, 1, 0, 1, strategy));
            cases.add(Arguments.of("truncate, stride 2, padding 1", ConvolutionMode.Truncate, 2, 1, 1, strategy));
            cases.add(Arguments.of("same, stride 2 (asymmetric padding)", ConvolutionMode.Same, 2, 0, 1, strategy));
            cases.add(Arguments.of("same, stride 1, dilation 2", ConvolutionMode.Same, 1, 0, 2, strategy));
            cases.add(Arguments.of("strict, stride 3", ConvolutionMode.Strict, 3, 0, 1, strategy));
            cases.add(Arguments.of("truncate, dilation 2, padding 2", ConvolutionMode.Truncate, 1, 2, 2, strategy));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}, {5}")
    @MethodSource("convolutions")
    void convolutionsMatchTheOneExampleLoop(String name, ConvolutionMode mode, int stride, int padding, int dilation,
                                            NormStrategy strategy) {
        MultiLayerNetwork net = OracleNetworks.leNet(mode, stride, padding, dilation);
        INDArray x = OracleNetworks.features(3, 5, 2 * 12 * 12);
        INDArray y = OracleNetworks.oneHot(5, 3);
        LayeredGradients engine = LayeredGradients.of(net, ExampleLayerRegistry.standard(strategy));
        INDArray truth = PerExampleGradientOracle.perExampleGradients(net, x, y);
        double median = median(truth.norm2(1));
        for (double clip : new double[]{0.5 * median, 1e6}) {
            assertAgrees(PerExampleGradientOracle.compare(truth, engine, net.params(), x, y, clip), name + ", C = " + clip);
        }
    }

    @Test
    void theTramerBonehCnnOnMnistSizedImagesMatches() {
        MultiLayerNetwork net = new MultiLayerNetwork(OracleNetworks.base(11)
                .layer(new ConvolutionLayer.Builder(8, 8).nOut(4).stride(2, 2).convolutionMode(ConvolutionMode.Same)
                        .activation(Activation.TANH).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(1, 1).build())
                .layer(new ConvolutionLayer.Builder(4, 4).nOut(5).stride(2, 2).convolutionMode(ConvolutionMode.Truncate)
                        .activation(Activation.TANH).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(1, 1).build())
                .layer(new DenseLayer.Builder().nOut(8).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nOut(10).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(28, 28, 1)).build());
        net.init();
        INDArray x = OracleNetworks.features(5, 4, 784);
        INDArray y = OracleNetworks.oneHot(4, 10);
        INDArray truth = PerExampleGradientOracle.perExampleGradients(net, x, y);
        for (NormStrategy strategy : NormStrategy.values()) {
            LayeredGradients engine = LayeredGradients.of(net, ExampleLayerRegistry.standard(strategy));
            assertAgrees(PerExampleGradientOracle.compare(truth, engine, net.params(), x, y, 0.5 * median(truth.norm2(1))),
                    strategy.toString());
        }
    }

    @Test
    void poolingPaddingActivationAndLossLayersPassThrough() {
        MultiLayerNetwork net = new MultiLayerNetwork(OracleNetworks.base(5)
                .layer(new ZeroPaddingLayer.Builder(1, 2).build())
                .layer(new ConvolutionLayer.Builder(3, 3).nOut(3).activation(Activation.IDENTITY).build())
                .layer(new ActivationLayer.Builder().activation(Activation.ELU).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.AVG).kernelSize(2, 2).stride(2, 2).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.PNORM).pnorm(2).kernelSize(2, 2).stride(1, 1).build())
                .layer(new DropoutLayer.Builder(1.0).build())
                .layer(new DenseLayer.Builder().nOut(4).activation(Activation.IDENTITY).build())
                .layer(new LossLayer.Builder(LossFunctions.LossFunction.MCXENT).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(9, 9, 1)).build());
        net.init();
        INDArray x = OracleNetworks.features(9, 6, 81);
        INDArray y = OracleNetworks.oneHot(6, 4);
        assertInstanceOf(LayeredGradients.class, ExampleGradients.of(net));
        assertAgrees(PerExampleGradientOracle.compare(net, x, y, 0.05), "pass-through layers");
    }

    @Test
    void embeddingsMatchTheOneExampleLoop() {
        MultiLayerNetwork net = new MultiLayerNetwork(OracleNetworks.base(13)
                .layer(new EmbeddingLayer.Builder().nIn(7).nOut(5).activation(Activation.TANH).build())
                .layer(new DenseLayer.Builder().nIn(5).nOut(4).activation(Activation.RELU).build())
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nIn(4).nOut(3).activation(Activation.SOFTMAX).build())
                .build());
        net.init();
        INDArray x = Nd4j.createFromArray(new double[]{0, 3, 6, 3, 2, 5}).reshape(6, 1);
        INDArray y = OracleNetworks.oneHot(6, 3);
        assertAgrees(PerExampleGradientOracle.compare(net, x, y, 0.1), "embedding");
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> ExampleGradients.of(net).sumClipped(
                net.params(), Nd4j.createFromArray(new double[]{7}).reshape(1, 1), OracleNetworks.oneHot(1, 3), null, 1.0,
                Nd4j.create(DataType.DOUBLE, 1, net.numParams())));
        assertTrue(bad.getMessage().contains("indices must lie in [0, 7)"), bad.getMessage());
    }

    @Test
    void withoutClippingTheSumIsDl4jsOwnGradientEvenWithDropout() {
        MultiLayerNetwork net = new MultiLayerNetwork(OracleNetworks.base(17)
                .layer(new ConvolutionLayer.Builder(3, 3).nOut(3).activation(Activation.RELU).build())
                .layer(new DropoutLayer.Builder(0.6).build())
                .layer(new DenseLayer.Builder().nOut(5).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nOut(3).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(6, 6, 1)).build());
        net.init();
        INDArray x = OracleNetworks.features(1, 8, 36);
        INDArray y = OracleNetworks.oneHot(8, 3);
        Nd4j.getRandom().setSeed(99);
        net.setInput(x);
        net.setLabels(y);
        net.computeGradientAndScore();
        INDArray dl4j = net.gradient().gradient().dup();
        double dl4jScore = net.score() * 8;
        net.clear();
        INDArray ours = Nd4j.create(DataType.DOUBLE, 1, net.numParams());
        Nd4j.getRandom().setSeed(99);
        ClippedBatch batch = ExampleGradients.of(net).sumClipped(net.params(), x, y, null, Double.POSITIVE_INFINITY, ours);
        assertEquals(0.0, ours.sub(dl4j.reshape(ours.shape())).norm2Number().doubleValue() / dl4j.norm2Number().doubleValue(), 1e-12);
        assertEquals(dl4jScore, batch.lossSums().getDouble(0), 1e-9 * Math.abs(dl4jScore));
    }

    @Test
    void graphsOfLayersAndPerExampleVerticesMatch() {
        ComputationGraphConfiguration conf = new NeuralNetConfiguration.Builder().seed(3).dataType(DataType.DOUBLE)
                .updater(new Sgd(0.1)).weightInit(WeightInit.XAVIER).graphBuilder()
                .addInputs("in")
                .setInputTypes(InputType.convolutionalFlat(8, 8, 1))
                .addLayer("conv", new ConvolutionLayer.Builder(3, 3).nOut(3).activation(Activation.TANH).build(), "in")
                .addLayer("pool", new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(2, 2).build(), "conv")
                .addLayer("a", new DenseLayer.Builder().nOut(6).activation(Activation.TANH).build(), "pool")
                .addLayer("b", new DenseLayer.Builder().nOut(6).activation(Activation.RELU).build(), "pool")
                .addVertex("sum", new ElementWiseVertex(ElementWiseVertex.Op.Product), "a", "b")
                .addVertex("half", new SubsetVertex(0, 2), "a")
                .addVertex("merged", new MergeVertex(), "sum", "half", "b")
                .addLayer("out", new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nOut(4).activation(Activation.SOFTMAX).build(), "merged")
                .setOutputs("out").build();
        ComputationGraph graph = new ComputationGraph(conf);
        graph.init();
        INDArray x = OracleNetworks.features(21, 5, 64);
        INDArray y = OracleNetworks.oneHot(5, 4);
        INDArray truth = PerExampleGradientOracle.perExampleGradients(graph, x, y);
        for (double clip : new double[]{0.5 * median(truth.norm2(1)), 1e6}) {
            assertAgrees(PerExampleGradientOracle.compare(truth, ExampleGradients.of(graph), graph.params(), x, y, clip), "graph");
        }
    }

    @Test
    void verticesThatMixTheBatchAreRefused() {
        MergeVertex alongBatch = new MergeVertex();
        alongBatch.setMergeAxis(0);
        ComputationGraphConfiguration conf = new NeuralNetConfiguration.Builder().seed(3).dataType(DataType.DOUBLE)
                .graphBuilder().addInputs("in").setInputTypes(InputType.feedForward(4))
                .addLayer("a", new DenseLayer.Builder().nOut(3).build(), "in")
                .addLayer("b", new DenseLayer.Builder().nOut(3).build(), "in")
                .addVertex("stack", new StackVertex(), "a", "b")
                .addVertex("merged", alongBatch, "a", "b")
                .addVertex("sum", new ElementWiseVertex(ElementWiseVertex.Op.Add), "stack", "merged")
                .addLayer("out", new OutputLayer.Builder(LossFunctions.LossFunction.MSE).nOut(3).activation(Activation.IDENTITY).build(), "sum")
                .setOutputs("out").build();
        ComputationGraph graph = new ComputationGraph(conf);
        graph.init();
        UnsupportedModelException e = assertThrows(UnsupportedModelException.class, () -> ExampleGradients.of(graph));
        assertTrue(e.getMessage().contains("vertex \"stack\": vertex type StackVertex is not supported"), e.getMessage());
        assertTrue(e.getMessage().contains("vertex \"merged\": this merge concatenates along dimension 0"), e.getMessage());
    }

    @Test
    void batchNormalizationIsRefusedWithWhatToDoInstead() {
        MultiLayerNetwork net = new MultiLayerNetwork(OracleNetworks.base(1)
                .layer(new ConvolutionLayer.Builder(3, 3).nOut(3).build())
                .layer(new BatchNormalization.Builder().build())
                .layer(new DenseLayer.Builder().nOut(4).dropOut(0.5).build())
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nOut(3).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(6, 6, 1)).build());
        net.init();
        UnsupportedModelException e = assertThrows(UnsupportedModelException.class, () -> ExampleGradients.of(net));
        String msg = e.getMessage();
        assertTrue(msg.contains("layer 1 (BatchNormalization): batch normalization mixes the examples"), msg);
        assertTrue(msg.contains("standardise the inputs once"), msg);
        assertTrue(msg.contains("layer 2 (DenseLayer): dropOut(...)") && msg.contains("DropoutLayer before this layer"), msg);
        assertEquals(2, e.problems().size(), msg);
    }

    @Test
    void aRegistryCanRefuseOrAddLayerTypes() {
        MultiLayerNetwork net = OracleNetworks.leNet(ConvolutionMode.Truncate, 1, 0, 1);
        ExampleLayerRegistry noPooling = ExampleLayerRegistry.standard().refusing(SubsamplingLayer.class,
                "pooling is not allowed here", "use strided convolutions");
        UnsupportedModelException e = assertThrows(UnsupportedModelException.class, () -> LayeredGradients.of(net, noPooling));
        assertTrue(e.getMessage().contains("layer 1 (SubsamplingLayer): pooling is not allowed here (use strided convolutions)"),
                e.getMessage());
        ExampleLayerRegistry again = noPooling.with(SubsamplingLayer.class, (c, p) -> new DelegatedExampleLayer(c));
        INDArray x = OracleNetworks.features(3, 2, 288);
        INDArray y = OracleNetworks.oneHot(2, 3);
        INDArray truth = PerExampleGradientOracle.perExampleGradients(net, x, y);
        assertAgrees(PerExampleGradientOracle.compare(truth, LayeredGradients.of(net, again), net.params(), x, y, 0.1), "re-added");
    }

    private static void assertAgrees(Comparison c, String what) {
        assertTrue(c.maxNormRelativeError() < TOLERANCE, what + ": norms off by " + c.maxNormRelativeError());
        assertTrue(c.sumRelativeError() < TOLERANCE, what + ": clipped sum off by " + c.sumRelativeError());
    }

    private static double median(INDArray v) {
        double[] d = v.toDoubleVector();
        java.util.Arrays.sort(d);
        return d[d.length / 2];
    }
}
