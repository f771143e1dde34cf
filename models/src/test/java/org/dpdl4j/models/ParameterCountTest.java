package org.dpdl4j.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.layers.FeedForwardLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class ParameterCountTest {
    private static final ModelOptions OPTIONS = ModelOptions.defaults();

    private static long parameters(MultiLayerConfiguration conf) {
        MultiLayerNetwork net = new MultiLayerNetwork(conf);
        net.init();
        return net.numParams();
    }

    @Test
    void paperMlpHas101770Parameters() {
        // 784*128 + 128 + 128*10 + 10
        assertEquals(101_770, parameters(MlpModel.paperConfiguration(784, 10, OPTIONS)));
    }

    @Test
    void deeperMlpCountsEveryLayer() {
        // 5*8+8 + 8*4+4 + 4*1+1
        assertEquals(89, parameters(MlpModel.configuration(5, List.of(8, 4), 1, Activation.TANH, OPTIONS)));
    }

    @Test
    void thePrivateCnnOnMnistHas26010Parameters() {
        // conv 16x1x8x8 + 16, conv 32x16x4x4 + 32 on 13x13 -> 5x5, pooled to 4x4x32 = 512, dense 512*32 + 32, 32*10 + 10
        assertEquals(26_010, parameters(PrivateCnnModel.configuration(ImageShape.MNIST, 10, Activation.TANH, OPTIONS)));
        IllegalArgumentException small = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> PrivateCnnModel.configuration(new ImageShape(1, 8, 8), 10, Activation.TANH, OPTIONS));
        org.junit.jupiter.api.Assertions.assertTrue(small.getMessage().contains("at least 16x16"), small.getMessage());
    }

    @Test
    void softmaxRegressionOnMnistHas7850Parameters() {
        assertEquals(7_850, parameters(SoftmaxRegressionModel.configuration(784, 10, OPTIONS)));
    }

    @Test
    void logisticRegressionOnA9aHas124Parameters() {
        assertEquals(124, parameters(LogisticRegressionModel.configuration(123, OPTIONS)));
    }

    @Test
    void leastSquaresBiasIsOptional() {
        assertEquals(11, parameters(LeastSquaresModel.configuration(10, 1, true, OPTIONS)));
        assertEquals(10, parameters(LeastSquaresModel.configuration(10, 1, false, OPTIONS)));
        assertEquals(7 * 784, parameters(LeastSquaresModel.configuration(784, 7, false, OPTIONS)));
    }

    @Test
    void dlgNetworkFlattensMnistTo588Features() {
        assertEquals(588, DlgLeNetModel.flattenedSize(ImageShape.MNIST));
        MultiLayerConfiguration conf = DlgLeNetModel.configuration(ImageShape.MNIST, 10,
                DlgLeNetModel.InputFormat.FLAT, OPTIONS);
        FeedForwardLayer output = (FeedForwardLayer) conf.getConf(3).getLayer();
        assertEquals(588, output.getNIn());
        // conv 1*12*25+12, conv 12*12*25+12 (twice), dense 588*10+10
        assertEquals(312 + 3612 + 3612 + 5890, parameters(conf));
    }

    @Test
    void dlgNetworkActivationShapesAreTwelveChannelsOf14Then7Then7() {
        MultiLayerNetwork net = DlgLeNetModel.network(ImageShape.MNIST, 10, DlgLeNetModel.InputFormat.FLAT,
                OPTIONS.withDataType(DataType.DOUBLE));
        INDArray flatBatch = Nd4j.rand(DataType.DOUBLE, 2, 784);
        List<INDArray> activations = net.feedForward(flatBatch, false);
        // activations.get(0) is the input; then one entry per layer.
        assertArrayEquals(new long[] {2, 12, 14, 14}, activations.get(1).shape());
        assertArrayEquals(new long[] {2, 12, 7, 7}, activations.get(2).shape());
        assertArrayEquals(new long[] {2, 12, 7, 7}, activations.get(3).shape());
        assertArrayEquals(new long[] {2, 10}, activations.get(4).shape());
    }

    @Test
    void dlgNetworkFlattensCifarTo768Features() {
        assertEquals(768, DlgLeNetModel.flattenedSize(ImageShape.CIFAR));
        MultiLayerConfiguration conf = DlgLeNetModel.configuration(ImageShape.CIFAR, 100,
                DlgLeNetModel.InputFormat.IMAGE, OPTIONS);
        assertEquals(768, ((FeedForwardLayer) conf.getConf(3).getLayer()).getNIn());
        assertEquals(3 * 12 * 25 + 12 + 2 * 3612 + 768 * 100 + 100, parameters(conf));
    }

    @Test
    void dlgFlatAndImageInputsGiveTheSameOutputs() {
        ModelOptions options = OPTIONS.withDataType(DataType.DOUBLE);
        MultiLayerNetwork flat = DlgLeNetModel.network(ImageShape.CIFAR, 100, DlgLeNetModel.InputFormat.FLAT, options);
        MultiLayerNetwork image = DlgLeNetModel.network(ImageShape.CIFAR, 100, DlgLeNetModel.InputFormat.IMAGE,
                options);
        assertEquals(flat.params(), image.params());
        INDArray rows = Nd4j.rand(DataType.DOUBLE, 3, 3 * 32 * 32);
        INDArray nchw = rows.reshape('c', 3, 3, 32, 32);
        INDArray fromFlat = flat.output(rows);
        INDArray fromImage = image.output(nchw);
        assertEquals(0.0, fromFlat.sub(fromImage).norm2Number().doubleValue(), 1e-12);
    }
}
