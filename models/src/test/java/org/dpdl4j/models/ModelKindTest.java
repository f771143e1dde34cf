package org.dpdl4j.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.layers.BaseOutputLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.activations.impl.ActivationSigmoid;
import org.nd4j.linalg.activations.impl.ActivationSoftmax;
import org.nd4j.linalg.lossfunctions.impl.LossBinaryXENT;
import org.nd4j.linalg.lossfunctions.impl.LossMCXENT;

class ModelKindTest {
    private static final ModelOptions OPTIONS = ModelOptions.defaults();

    @Test
    void cliNamesRoundTrip() {
        assertEquals(List.of("mlp", "logistic", "softmax", "least-squares", "cnn", "dlg-lenet"),
                java.util.Arrays.stream(ModelKind.values()).map(ModelKind::cliName).toList());
        for (ModelKind kind : ModelKind.values()) {
            assertEquals(kind, ModelKind.fromCliName(kind.cliName()));
            assertEquals(kind, ModelKind.fromCliName(kind.name()));
        }
        assertEquals(ModelKind.LEAST_SQUARES, ModelKind.fromCliName(" Least_Squares "));
    }

    @Test
    void kindsBuildTheSameConfigurationsAsTheirBuilders() {
        assertEquals(MlpModel.paperConfiguration(784, 10, OPTIONS), ModelKind.MLP.configuration(784, 10, OPTIONS));
        assertEquals(LogisticRegressionModel.configuration(123, OPTIONS),
                ModelKind.LOGISTIC.configuration(123, 1, OPTIONS));
        assertEquals(SoftmaxRegressionModel.configuration(784, 10, OPTIONS),
                ModelKind.SOFTMAX.configuration(784, 10, OPTIONS));
        assertEquals(LeastSquaresModel.configuration(10, 1, false, OPTIONS), ModelKind.LEAST_SQUARES.configuration(
                10, 1, OPTIONS, Architecture.defaults().withLeastSquaresBias(false)));
        assertEquals(DlgLeNetModel.configuration(ImageShape.MNIST, 10, DlgLeNetModel.InputFormat.FLAT, OPTIONS),
                ModelKind.DLG_LENET.configuration(784, 10, OPTIONS));
        assertEquals(DlgLeNetModel.configuration(ImageShape.CIFAR, 100, DlgLeNetModel.InputFormat.FLAT, OPTIONS),
                ModelKind.DLG_LENET.configuration(3072, 100, OPTIONS));
        assertEquals(DlgLeNetModel.configuration(new ImageShape(2, 4, 8), 3, DlgLeNetModel.InputFormat.FLAT, OPTIONS),
                ModelKind.DLG_LENET.configuration(64, 3, OPTIONS,
                        Architecture.defaults().withImageShape(new ImageShape(2, 4, 8))));
    }

    @Test
    void mlpUsesTheArchitectureAndPicksTheOutputByClassCount() {
        Architecture arch = Architecture.defaults().withHiddenLayers(List.of(32, 16), Activation.TANH);
        MultiLayerConfiguration multi = ModelKind.MLP.configuration(20, 4, OPTIONS, arch);
        assertEquals(3, multi.getConfs().size());
        assertEquals(32, ((DenseLayer) multi.getConf(0).getLayer()).getNOut());
        assertEquals(Activation.TANH.getActivationFunction(), ((DenseLayer) multi.getConf(1).getLayer()).getActivationFn());
        BaseOutputLayer softmax = (BaseOutputLayer) multi.getConf(2).getLayer();
        assertTrue(softmax.getLossFn() instanceof LossMCXENT);
        assertTrue(softmax.getActivationFn() instanceof ActivationSoftmax);
        BaseOutputLayer sigmoid = (BaseOutputLayer) ModelKind.MLP.configuration(20, 1, OPTIONS, arch).getConf(2).getLayer();
        assertTrue(sigmoid.getLossFn() instanceof LossBinaryXENT);
        assertTrue(sigmoid.getActivationFn() instanceof ActivationSigmoid);
    }

    @Test
    void dlgNetworkOfTheKindStartsUniform() {
        MultiLayerNetwork net = ModelKind.DLG_LENET.network(784, 10, OPTIONS);
        assertTrue(net.getParam("3_b").minNumber().doubleValue() < -0.05, "output biases drawn, not constant zero");
        assertTrue(net.params().amaxNumber().doubleValue() < 0.5);
    }

    @Test
    void imageShapesAreInferredFromSquares() {
        assertEquals(ImageShape.MNIST, ImageShape.squareFromFlatSize(784));
        assertEquals(ImageShape.CIFAR, ImageShape.squareFromFlatSize(3072));
        assertEquals(new ImageShape(1, 1, 1), ImageShape.squareFromFlatSize(1));
        assertEquals(new ImageShape(3, 1, 1), ImageShape.squareFromFlatSize(3));
        assertEquals(784, ImageShape.MNIST.flatSize());
        assertEquals("3x32x32", ImageShape.CIFAR.toString());
    }
}
