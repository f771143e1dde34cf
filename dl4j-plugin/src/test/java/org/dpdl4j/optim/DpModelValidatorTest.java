package org.dpdl4j.optim;

import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.BatchNormalization;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.dpdl4j.models.DlgLeNetModel;
import org.dpdl4j.models.ImageShape;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.nn.UnsupportedModelException;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;
import org.nd4j.linalg.lossfunctions.impl.LossFMeasure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DpModelValidatorTest {

    private static OutputLayer softmax(int nIn, int nOut) {
        return new OutputLayer.Builder(LossFunction.MCXENT).nIn(nIn).nOut(nOut).activation(Activation.SOFTMAX).build();
    }

    private static String rejection(MultiLayerConfiguration conf) {
        return assertThrows(UnsupportedModelException.class, () -> DpModelValidator.validate(conf)).getMessage();
    }

    @Test
    void acceptsDenseStacksAndRecordsTheParameterLayout() {
        MultiLayerConfiguration conf = new NeuralNetConfiguration.Builder().list()
                .layer(new DenseLayer.Builder().nIn(7).nOut(5).activation(Activation.TANH).build())
                .layer(new DenseLayer.Builder().nIn(5).nOut(4).hasBias(false).activation(Activation.RELU).build())
                .layer(softmax(4, 3)).build();
        DenseNetworkSpec spec = DpModelValidator.validate(conf);
        assertEquals(3, spec.layers().size());
        assertEquals(0, spec.layers().get(0).weightOffset());
        assertEquals(7 * 5 + 5, spec.layers().get(1).weightOffset());
        assertEquals(7 * 5 + 5 + 5 * 4, spec.layers().get(2).weightOffset());
        assertEquals(7 * 5 + 5 + 5 * 4 + 4 * 3 + 3, spec.numParams());
    }

    @Test
    void rejectsBatchNormalizationNamingTheLayer() {
        MultiLayerConfiguration conf = new NeuralNetConfiguration.Builder().list()
                .layer(new DenseLayer.Builder().nIn(7).nOut(5).build())
                .layer(new BatchNormalization.Builder().nIn(5).nOut(5).name("bn").build())
                .layer(softmax(5, 3)).build();
        String msg = rejection(conf);
        assertTrue(msg.contains("layer 1 (BatchNormalization \"bn\")"), msg);
        assertTrue(msg.contains("Supported:"), msg);
    }

    @Test
    void rejectsConvolutionsDropoutLayerNormAndBatchLevelLosses() {
        MultiLayerConfiguration conv = new NeuralNetConfiguration.Builder().list()
                .layer(new ConvolutionLayer.Builder(3, 3).nOut(2).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(3).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(8, 8, 1)).build();
        String msg = rejection(conv);
        assertTrue(msg.contains("ConvolutionLayer") && msg.contains("preprocessors"), msg);

        MultiLayerConfiguration dropout = new NeuralNetConfiguration.Builder().list()
                .layer(new DenseLayer.Builder().nIn(7).nOut(5).dropOut(0.5).build())
                .layer(softmax(5, 3)).build();
        assertTrue(rejection(dropout).contains("dropout"));

        MultiLayerConfiguration layerNorm = new NeuralNetConfiguration.Builder().list()
                .layer(new DenseLayer.Builder().nIn(7).nOut(5).hasLayerNorm(true).build())
                .layer(softmax(5, 3)).build();
        assertTrue(rejection(layerNorm).contains("layer normalization"));

        MultiLayerConfiguration fMeasure = new NeuralNetConfiguration.Builder().list()
                .layer(new OutputLayer.Builder(new LossFMeasure()).nIn(4).nOut(1).activation(Activation.SIGMOID).build()).build();
        assertTrue(rejection(fMeasure).contains("F-measure"));
    }

    @Test
    void theDenseEngineRefusesTheConvolutionalDlgLeNetNamingEveryConvolutionAndPreprocessorWhichThePerLayerEngineTakes() {
        String msg = rejection(DlgLeNetModel.configuration(ImageShape.MNIST, 10, DlgLeNetModel.InputFormat.FLAT,
                ModelOptions.defaults()));
        for (int i = 0; i < 3; i++) {
            assertTrue(msg.contains("layer " + i + " (ConvolutionLayer): the stacked per-example engine"), msg);
        }
        assertTrue(msg.contains("train the CNN centrally"), msg);
        assertTrue(ExampleGradients.of(DlgLeNetModel.network(ImageShape.MNIST, 10, DlgLeNetModel.InputFormat.FLAT,
                ModelOptions.defaults())) instanceof org.dpdl4j.optim.layers.LayeredGradients);
        assertTrue(msg.contains("input preprocessors at layers [0, 3] (feed flat feature vectors instead)"), msg);
        assertTrue(msg.endsWith(" FLOAT or DOUBLE."), msg);
    }

    @Test
    void listsEveryProblemAtOnce() {
        MultiLayerConfiguration conf = new NeuralNetConfiguration.Builder().list()
                .layer(new DenseLayer.Builder().nIn(7).nOut(5).dropOut(0.5).build())
                .layer(new BatchNormalization.Builder().nIn(5).nOut(5).build())
                .layer(softmax(5, 3)).build();
        String msg = rejection(conf);
        assertTrue(msg.contains("layer 0") && msg.contains("layer 1"), msg);
    }
}
