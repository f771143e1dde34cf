package org.dpdl4j.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.BatchNormalization;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.preprocessor.CnnToFeedForwardPreProcessor;
import org.deeplearning4j.nn.conf.preprocessor.FeedForwardToCnnPreProcessor;
import org.deeplearning4j.nn.conf.preprocessor.RnnToFeedForwardPreProcessor;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.models.DlgLeNetModel;
import org.dpdl4j.models.ImageShape;
import org.dpdl4j.models.ModelOptions;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.activations.impl.ActivationReLU;
import org.nd4j.linalg.activations.impl.ActivationSigmoid;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;
import org.nd4j.linalg.lossfunctions.impl.LossMCXENT;

/** The shared reader against DL4J's own view of the same networks: layout, shapes and named problems. */
class ModelReaderTest {

    private static MultiLayerNetwork init(MultiLayerConfiguration conf) {
        MultiLayerNetwork net = new MultiLayerNetwork(conf);
        net.init();
        return net;
    }

    private static OutputLayer softmax(int nIn, int nOut) {
        return new OutputLayer.Builder(LossFunction.MCXENT).nIn(nIn).nOut(nOut).activation(Activation.SOFTMAX).build();
    }

    /** Offsets, counts and parameter views of every layer agree with DL4J's own layers and param tables. */
    private static void assertDl4jLayout(ModelDescription model, MultiLayerNetwork net) {
        assertEquals(net.getnLayers(), model.layers().size());
        assertEquals(net.numParams(), model.numParams());
        long offset = 0;
        for (LayerDescription layer : model.layers()) {
            int i = layer.index();
            assertEquals(offset, layer.paramOffset(), "offset of layer " + i);
            assertEquals(net.getLayer(i).numParams(), layer.paramCount(), "count of layer " + i);
            offset += layer.paramCount();
            Map<String, INDArray> table = net.getLayer(i).paramTable();
            Map<String, INDArray> views = layer.parameterViews(net.params());
            assertEquals(table.keySet(), views.keySet(), "parameter keys of layer " + i);
            for (Map.Entry<String, INDArray> e : table.entrySet()) {
                assertArrayEquals(e.getValue().shape(), views.get(e.getKey()).shape(), e.getKey() + " of layer " + i);
                assertTrue(e.getValue().equals(views.get(e.getKey())), e.getKey() + " of layer " + i);
            }
        }
    }

    private static List<ModelProblem> problemsOf(ModelDescription model, int layer) {
        return model.problems().stream().filter(p -> p.layerIndex() == layer).toList();
    }

    @Test
    void readsADenseMlpWithDl4jsParameterLayout() {
        MultiLayerNetwork net = init(new NeuralNetConfiguration.Builder().dataType(DataType.DOUBLE).list()
                .layer(new DenseLayer.Builder().nIn(7).nOut(5).activation(Activation.TANH).build())
                .layer(new DenseLayer.Builder().nIn(5).nOut(4).hasBias(false).activation(Activation.RELU).build())
                .layer(softmax(4, 3)).build());
        ModelDescription model = ModelReader.read(net);

        assertTrue(model.isReadable(), model.problems().toString());
        assertEquals(7, model.inputSize());
        assertEquals(DataType.DOUBLE, model.dataType());
        assertEquals(List.of(LayerKind.DENSE, LayerKind.DENSE, LayerKind.OUTPUT),
                model.layers().stream().map(LayerDescription::kind).toList());
        LayerDescription hidden = model.layers().get(1);
        assertEquals(5, hidden.nIn());
        assertEquals(4, hidden.nOut());
        assertFalse(hidden.hasBias());
        assertInstanceOf(ActivationReLU.class, hidden.activation());
        assertEquals(ExampleShape.flat(5), hidden.input());
        assertEquals(ExampleShape.flat(4), hidden.output());
        assertNull(hidden.preprocessor());
        assertNull(hidden.loss());
        assertInstanceOf(LossMCXENT.class, model.output().loss());
        assertEquals(7 * 5 + 5 + 5 * 4, model.output().paramOffset());
        assertDl4jLayout(model, net);
    }

    @Test
    void parameterViewsShareTheVectorTheyView() {
        MultiLayerNetwork net = init(new NeuralNetConfiguration.Builder().list()
                .layer(new DenseLayer.Builder().nIn(3).nOut(2).build())
                .layer(softmax(2, 2)).build());
        LayerDescription output = ModelReader.read(net).output();
        output.parameterViews(net.params()).get("b").assign(42.0);
        assertEquals(42.0, net.getLayer(1).getParam("b").getDouble(1), 0.0);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> output.parameterViews(Nd4j.zeros(1, 10)));
        assertTrue(e.getMessage().contains("layer 1 (OutputLayer)") && e.getMessage().contains("net.params()"),
                e.getMessage());
    }

    @Test
    void readsTheDlgLeNetWithItsPreprocessorsAndGeometry() {
        MultiLayerNetwork lenet = DlgLeNetModel.network(ImageShape.MNIST, 10, DlgLeNetModel.InputFormat.FLAT,
                ModelOptions.defaults());
        ModelDescription model = ModelReader.read(lenet);

        assertTrue(model.isReadable(), model.problems().toString());
        assertEquals(784, model.inputSize());
        assertInstanceOf(FeedForwardToCnnPreProcessor.class, model.layers().get(0).preprocessor());
        assertEquals(ExampleShape.image(1, 28, 28), model.layers().get(0).input());
        int[] sizes = {14, 7, 7};
        for (int i = 0; i < 3; i++) {
            LayerDescription conv = model.layers().get(i);
            assertEquals(LayerKind.CONVOLUTION_2D, conv.kind());
            assertInstanceOf(ActivationSigmoid.class, conv.activation());
            assertEquals(ExampleShape.image(12, sizes[i], sizes[i]), conv.output());
            assertEquals(2, conv.convolution().padTop());
        }
        LayerDescription output = model.output();
        assertEquals(LayerKind.OUTPUT, output.kind());
        assertInstanceOf(CnnToFeedForwardPreProcessor.class, output.preprocessor());
        assertEquals(ExampleShape.flat(588), output.input());
        assertDl4jLayout(model, lenet);
        assertGeometryMatchesDl4jsActivations(model, lenet);
    }

    @Test
    void readsPoolingWithItsGeometryAndOutputShapeAsDl4jComputesThem() {
        MultiLayerNetwork net = init(new NeuralNetConfiguration.Builder().list()
                .layer(new ConvolutionLayer.Builder(3, 3).nOut(4).activation(Activation.TANH).build())
                .layer(new org.deeplearning4j.nn.conf.layers.SubsamplingLayer.Builder(
                        org.deeplearning4j.nn.conf.layers.SubsamplingLayer.PoolingType.AVG).kernelSize(3, 2).stride(2, 1).build())
                .layer(softmax(4 * 4 * 7, 3))
                .setInputType(InputType.convolutionalFlat(11, 10, 2)).build());
        ModelDescription model = ModelReader.read(net);
        assertTrue(model.isReadable(), model.problems().toString());
        LayerDescription pool = model.layers().get(1);
        assertEquals(LayerKind.SUBSAMPLING_2D, pool.kind());
        assertEquals(new PoolingGeometry(PoolingGeometry.Kind.AVERAGE, 4, 9, 8, 3, 2, 2, 1, 4, 7), pool.pooling());
        assertEquals(ExampleShape.image(4, 4, 7), pool.output());
        assertEquals(0, pool.paramCount());
        INDArray x = Nd4j.rand(DataType.FLOAT, 2, 11 * 10 * 2);
        long[] dl4j = net.feedForward(x, false).get(2).shape();
        assertArrayEquals(new long[] {2, 4, 4, 7}, dl4j, "DL4J's own pooled activations");
        assertDl4jLayout(model, net);
    }

    @Test
    void paddedOrSameModePoolingIsAProblem() {
        MultiLayerNetwork net = init(new NeuralNetConfiguration.Builder().list()
                .layer(new ConvolutionLayer.Builder(3, 3).nOut(2).activation(Activation.TANH).build())
                .layer(new org.deeplearning4j.nn.conf.layers.SubsamplingLayer.Builder(2, 2).padding(1, 1).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(3).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(8, 8, 1)).build());
        ModelDescription model = ModelReader.read(net);
        assertTrue(model.problems().stream().anyMatch(p -> p.toString().contains("padded pooling")), model.problems().toString());
    }

    @Test
    void convolutionGeometryMatchesDl4jsOutputsForSameModeStridesAndDilation() {
        MultiLayerNetwork net = init(new NeuralNetConfiguration.Builder().list()
                .layer(new ConvolutionLayer.Builder(3, 3).stride(2, 2).nOut(2)
                        .convolutionMode(ConvolutionMode.Same).activation(Activation.SIGMOID).build())
                .layer(new ConvolutionLayer.Builder(3, 2).dilation(2, 1).padding(1, 0).nOut(3)
                        .convolutionMode(ConvolutionMode.Truncate).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(4).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(9, 8, 2)).build());
        ModelDescription model = ModelReader.read(net);
        assertTrue(model.isReadable(), model.problems().toString());
        assertEquals(2 * 9 * 8, model.inputSize());
        assertGeometryMatchesDl4jsActivations(model, net);
        assertDl4jLayout(model, net);
    }

    /** DL4J's own forward pass decides the output size of every convolution. */
    private static void assertGeometryMatchesDl4jsActivations(ModelDescription model, MultiLayerNetwork net) {
        List<INDArray> activations = net.feedForward(Nd4j.rand(net.params().dataType(), 2, model.inputSize()));
        for (LayerDescription layer : model.layers()) {
            if (layer.kind() == LayerKind.CONVOLUTION_2D) {
                ConvolutionGeometry g = layer.convolution();
                assertArrayEquals(new long[] {2, g.outChannels(), g.outHeight(), g.outWidth()},
                        activations.get(layer.index() + 1).shape(), "output of " + layer.label());
            }
        }
    }

    @Test
    void imageInputWithoutAFlatToImagePreprocessorIsNamed() {
        ModelDescription model = ModelReader.read(DlgLeNetModel.configuration(ImageShape.MNIST, 10,
                DlgLeNetModel.InputFormat.IMAGE, ModelOptions.defaults()));
        List<ModelProblem> first = problemsOf(model, 0);
        assertEquals(1, first.size(), model.problems().toString());
        assertEquals("layer 0 (ConvolutionLayer)", first.get(0).where());
        assertTrue(first.get(0).fix().contains("InputType.convolutionalFlat"), first.get(0).toString());
        assertEquals(-1, model.inputSize());
        // Past the unknown input nothing more is reported: one cause, one problem.
        assertEquals(1, model.problems().size(), model.problems().toString());
    }

    @Test
    void unsupportedLayersAndOptionsAreNamedAndStillLaidOutLikeDl4j() {
        MultiLayerNetwork net = init(new NeuralNetConfiguration.Builder().list()
                .layer(new DenseLayer.Builder().nIn(7).nOut(5).build())
                .layer(new BatchNormalization.Builder().nIn(5).nOut(5).name("bn").build())
                .layer(new DenseLayer.Builder().nIn(5).nOut(4).dropOut(0.5).hasLayerNorm(true).build())
                .layer(softmax(4, 3)).build());
        ModelDescription model = ModelReader.read(net);

        assertEquals(LayerKind.UNSUPPORTED, model.layers().get(1).kind());
        assertTrue(problemsOf(model, 0).isEmpty(), model.problems().toString());
        List<ModelProblem> bn = problemsOf(model, 1);
        assertEquals(1, bn.size(), bn.toString());
        assertTrue(bn.get(0).toString().startsWith("layer 1 (BatchNormalization \"bn\"): layer type BatchNormalization"
                + " is not supported"), bn.get(0).toString());
        List<String> dense = problemsOf(model, 2).stream().map(ModelProblem::toString).toList();
        assertEquals(2, dense.size(), dense.toString());
        assertTrue(dense.get(0).startsWith("layer 2 (DenseLayer): dropout") && dense.get(0).contains("dropOut(...)"),
                dense.toString());
        assertTrue(dense.get(1).contains("layer normalization"), dense.toString());
        assertTrue(problemsOf(model, 3).isEmpty(), model.problems().toString());
        assertDl4jLayout(model, net);
    }

    @Test
    void foreignPreprocessorsMismatchedSizesAndMisplacedOutputLayersAreNamed() {
        MultiLayerConfiguration conf = new NeuralNetConfiguration.Builder().list()
                .layer(new DenseLayer.Builder().nIn(6).nOut(4).build())
                .layer(softmax(4, 2)).build();
        // Put in after build(): DL4J's builder would refuse an RNN preprocessor after a dense layer.
        conf.getInputPreProcessors().put(1, new RnnToFeedForwardPreProcessor());
        ModelDescription preprocessed = ModelReader.read(conf);
        assertEquals(1, preprocessed.problems().size(), preprocessed.problems().toString());
        String problem = preprocessed.problems().get(0).toString();
        assertTrue(problem.startsWith("layer 1 (OutputLayer): input preprocessor RnnToFeedForwardPreProcessor is not"
                + " supported"), problem);

        MultiLayerConfiguration edited = new NeuralNetConfiguration.Builder().list()
                .layer(new DenseLayer.Builder().nIn(6).nOut(4).build())
                .layer(softmax(4, 2)).build();
        // DL4J's builder infers nIn from the previous layer; a configuration edited (or deserialised) later may not.
        ((OutputLayer) edited.getConf(1).getLayer()).setNIn(3);
        ModelDescription mismatched = ModelReader.read(edited);
        assertEquals(List.of("layer 1 (OutputLayer): expects 3 inputs but receives 4 (set nIn(4) or let"
                + " setInputType(...) infer it)"), mismatched.problems().stream().map(ModelProblem::toString).toList());

        ModelDescription misplaced = ModelReader.read(new NeuralNetConfiguration.Builder().list()
                .layer(softmax(6, 4))
                .layer(new DenseLayer.Builder().nIn(4).nOut(2).name("last").build()).build());
        List<String> problems = misplaced.problems().stream().map(ModelProblem::toString).toList();
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("layer 0 (OutputLayer): an OutputLayer must be the last layer"),
                problems.toString());
        assertTrue(problems.get(1).startsWith("layer 1 (DenseLayer \"last\"): the last layer must be an OutputLayer"),
                problems.toString());
    }

    @Test
    void theExceptionListsNetworkProblemsFirstThenLayersInOrder() {
        UnsupportedModelException e = new UnsupportedModelException("Cannot do X", List.of(
                new ModelProblem(2, "layer 2 (DenseLayer)", "b", "fix b"),
                new ModelProblem(0, "layer 0 (DenseLayer)", "a", "fix a"),
                ModelProblem.network("n", "fix n"),
                new ModelProblem(2, "layer 2 (DenseLayer)", "c", "fix c")), "Supported: Y.");
        assertEquals("Cannot do X:\n  - n (fix n)\n  - layer 0 (DenseLayer): a (fix a)\n"
                + "  - layer 2 (DenseLayer): b (fix b)\n  - layer 2 (DenseLayer): c (fix c)\nSupported: Y.",
                e.getMessage());
        assertEquals(List.of("n", "a", "b", "c"), e.problems().stream().map(ModelProblem::problem).toList());
        assertThrows(IllegalArgumentException.class, () -> new UnsupportedModelException("Cannot do X", List.of(), "Y"));
    }
}
