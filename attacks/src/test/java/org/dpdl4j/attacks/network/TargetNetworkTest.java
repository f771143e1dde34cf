package org.dpdl4j.attacks.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.BatchNormalization;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.TestNetworks;
import org.dpdl4j.models.DlgLeNetModel;
import org.dpdl4j.models.ImageShape;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.nn.ConvolutionGeometry;
import org.dpdl4j.nn.UnsupportedModelException;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/** Reading DL4J networks: stages, geometry, parameter layout, and clear refusals. */
class TargetNetworkTest {

    @Test
    void dlgLeNetHasThreeConvolutionsAnd588Features() {
        MultiLayerNetwork lenet = DlgLeNetModel.network(ImageShape.MNIST, 10, DlgLeNetModel.InputFormat.FLAT,
                ModelOptions.defaults());
        TargetNetwork t = TargetNetwork.of(lenet);
        assertEquals(784, t.inputSize());
        assertEquals(4, t.stages().size());
        int[] sizes = {14, 7, 7};
        for (int i = 0; i < 3; i++) {
            ConvolutionGeometry g = assertInstanceOf(ConvolutionStage.class, t.stages().get(i)).geometry();
            assertEquals(sizes[i], g.outHeight());
            assertEquals(sizes[i], g.outWidth());
            assertEquals(2, g.padTop());
            assertEquals(StageActivation.SIGMOID, t.stages().get(i).activation());
        }
        assertEquals(588, t.stages().get(3).inputSize());
        assertEquals(OutputHead.SOFTMAX_CROSS_ENTROPY, t.head());
        assertEquals(lenet.numParams(), t.numParams());
        assertTrue(!t.isDenseOnly());
    }

    @Test
    void splitUsesDl4jsLayoutAndFlattenInvertsIt() {
        for (MultiLayerNetwork net : List.of(TestNetworks.tinyCnn(2, 6, 3, 1, DataType.DOUBLE),
                TestNetworks.mlp(5, new int[] {4}, 3, Activation.RELU, 2, DataType.DOUBLE))) {
            TargetNetwork t = TargetNetwork.of(net);
            List<LayerGradient> parts = t.split(net.params());
            for (int s = 0; s < parts.size(); s++) {
                int layer = t.stages().get(s).layerIndex();
                assertTrue(parts.get(s).weights().equals(net.getLayer(layer).getParam("W")), "W of layer " + layer);
                assertTrue(parts.get(s).bias().reshape(-1).equals(net.getLayer(layer).getParam("b").reshape(-1)),
                        "b of layer " + layer);
                assertTrue(parts.get(s).weights().equals(t.stages().get(s).weights()), "snapshot weights");
            }
            INDArray v = Nd4j.rand(DataType.DOUBLE, 1, t.numParams());
            assertTrue(t.flatten(t.split(v)).equals(v), "flatten(split(v)) = v");
        }
        TargetNetwork t = TargetNetwork.of(TestNetworks.softmaxRegression(4, 3, 1, DataType.DOUBLE));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> t.split(Nd4j.zeros(DataType.DOUBLE, 1, 7)));
        assertTrue(e.getMessage().contains("15 parameters"), e.getMessage());
    }

    @Test
    void unsupportedLayersAreRefusedByName() {
        MultiLayerConfiguration doublePooled = new NeuralNetConfiguration.Builder().list()
                .layer(new ConvolutionLayer.Builder(3, 3).nOut(2).activation(Activation.SIGMOID).build())
                .layer(new SubsamplingLayer.Builder(2, 2).stride(1, 1).build())
                .layer(new SubsamplingLayer.Builder(2, 2).stride(1, 1).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(3).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(8, 8, 1)).build();
        assertRefused(doublePooled, "layer 2 (SubsamplingLayer): pooling is supported directly after a convolution only");

        MultiLayerConfiguration padded = new NeuralNetConfiguration.Builder().list()
                .layer(new ConvolutionLayer.Builder(3, 3).nOut(2).activation(Activation.SIGMOID).build())
                .layer(new SubsamplingLayer.Builder(2, 2).padding(1, 1).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(3).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(8, 8, 1)).build();
        assertRefused(padded, "padded pooling");

        MultiLayerConfiguration normalised = new NeuralNetConfiguration.Builder().list()
                .layer(new DenseLayer.Builder().nIn(4).nOut(3).activation(Activation.RELU).build())
                .layer(new BatchNormalization.Builder().nOut(3).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nIn(3).nOut(2).activation(Activation.SOFTMAX).build())
                .build();
        assertRefused(normalised, "BatchNormalization");

        MultiLayerConfiguration dropout = new NeuralNetConfiguration.Builder().list()
                .layer(new DenseLayer.Builder().nIn(4).nOut(3).dropOut(0.5).activation(Activation.RELU).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nIn(3).nOut(2).activation(Activation.SOFTMAX).build())
                .build();
        assertRefused(dropout, "dropout");

        MultiLayerConfiguration leaky = new NeuralNetConfiguration.Builder().list()
                .layer(new DenseLayer.Builder().nIn(4).nOut(3).activation(Activation.LEAKYRELU).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nIn(3).nOut(2).activation(Activation.SOFTMAX).build())
                .build();
        assertRefused(leaky, "sigmoid, tanh, relu");

        MultiLayerConfiguration squared = new NeuralNetConfiguration.Builder().list()
                .layer(new OutputLayer.Builder(LossFunction.MSE).nIn(4).nOut(2).activation(Activation.IDENTITY).build())
                .build();
        assertRefused(squared, "SOFTMAX with MCXENT");
    }

    @Test
    void poolingJoinsTheConvolutionBeforeIt() {
        MultiLayerNetwork net = org.dpdl4j.models.ModelKind.CNN.network(784, 10, org.dpdl4j.models.ModelOptions.defaults());
        TargetNetwork t = TargetNetwork.of(net);
        assertEquals(4, t.stages().size(), t.toString());
        ConvolutionStage first = assertInstanceOf(ConvolutionStage.class, t.stages().get(0));
        ConvolutionStage second = assertInstanceOf(ConvolutionStage.class, t.stages().get(1));
        assertTrue(first.isPooled() && second.isPooled(), t.toString());
        assertEquals(org.dpdl4j.nn.PoolingGeometry.Kind.MAX, first.pooling().kind());
        assertEquals(16 * 13 * 13, first.outputSize(), "14x14 convolved, pooled 2x2 with stride 1");
        assertEquals(32 * 4 * 4, second.outputSize());
        assertEquals(512, t.stages().get(2).inputSize());
        assertEquals(26_010, t.numParams());
        assertTrue(t.toString().contains("conv16@14x14+maxpool@13x13"), t.toString());
    }

    @Test
    void everyProblemIsListedAtOnceIncludingLayerNormalization() {
        MultiLayerConfiguration conf = new NeuralNetConfiguration.Builder().list()
                .layer(new DenseLayer.Builder().nIn(4).nOut(3).hasLayerNorm(true).activation(Activation.TANH).build())
                .layer(new DenseLayer.Builder().nIn(3).nOut(3).activation(Activation.LEAKYRELU).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nIn(3).nOut(2).activation(Activation.SOFTMAX).build())
                .build();
        assertRefused(conf, "layer 0 (DenseLayer): layer normalization is not supported");
        assertRefused(conf, "layer 1 (DenseLayer): activation leakyrelu");
    }

    private static void assertRefused(MultiLayerConfiguration conf, String expected) {
        MultiLayerNetwork net = new MultiLayerNetwork(conf);
        net.init();
        UnsupportedModelException e = assertThrows(UnsupportedModelException.class, () -> TargetNetwork.of(net));
        assertTrue(e.getMessage().contains(expected), "message should mention '" + expected + "': " + e.getMessage());
    }
}
