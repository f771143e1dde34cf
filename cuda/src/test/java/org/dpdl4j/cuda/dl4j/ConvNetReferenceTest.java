package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInit;
import org.dpdl4j.cuda.engine.ConvNetDpStep;
import org.dpdl4j.cuda.engine.ConvShape;
import org.dpdl4j.cuda.engine.JavaBackend;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.optim.layers.NormStrategy;
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

import java.lang.reflect.Method;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CUDA engine's convolutional step on the reference backend - the convolution and pooling passes as cuDNN computes
 * them, the unfolded inputs, the Gram and materialised per-example norms, the clipped sums - against dpdl4j's CPU
 * engine for convolutions ({@code LayeredGradients}) and DL4J's batch-of-one oracle: the clipped sum to 1e-5 relative,
 * the norms and the loss sum likewise, clipping active and inactive.
 */
class ConvNetReferenceTest {

    static Stream<Arguments> networks() {
        return Stream.of(
                Arguments.of("the private tanh CNN on 28x28 MNIST images (materialised and ghost norms)",
                        ModelKind.CNN.network(784, 10, ModelOptions.defaults().withDataType(DataType.FLOAT)), 6),
                Arguments.of("padded Truncate convolution, relu convolution without bias, pooling, sigmoid dense",
                        leNet(ConvolutionMode.Truncate, 1, 1), 7),
                Arguments.of("Same-mode strided convolution, identity activation, strided pooling",
                        sameMode(), 5));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("networks")
    void equalsTheCpuEngineAndTheOracle(String name, MultiLayerNetwork net, int b) {
        int pixels = nIn(net);
        INDArray x = Nd4j.rand(DataType.FLOAT, b, pixels);
        INDArray y = labels(b, (int) net.getOutputLayer().getParam("b").length());
        try (CudaExampleGradients engine = CudaExampleGradients.convolutional(net, new JavaBackend(), true)) {
            HostComparison.assertMatchesHost(engine, net, x, y, name);
            INDArray x2 = Nd4j.rand(DataType.FLOAT, 2, pixels);
            HostComparison.assertMatchesHost(engine, net, x2, labels(2, y.columns()), name + ", then a batch of 2");
        }
    }

    @Test
    void theNormRuleIsTheCpuEnginesRule() throws Exception {
        Method cpu = NormStrategy.class.getDeclaredMethod("ghost", long.class, long.class, long.class);
        cpu.setAccessible(true);
        for (ConvShape s : new ConvShape[]{new ConvShape(1, 28, 28, 16, 8, 8, 2, 2, 3, 3), new ConvShape(16, 13, 13, 32, 4, 4,
                2, 2, 0, 0), new ConvShape(3, 32, 32, 64, 3, 3, 1, 1, 1, 1), new ConvShape(64, 8, 8, 64, 3, 3, 1, 1, 0, 0)}) {
            assertEquals(cpu.invoke(NormStrategy.CHEAPER, (long) s.positions(), (long) s.taps(), (long) s.outC()),
                    ConvNetDpStep.ghostNorms(s), s.toString());
        }
    }

    @Test
    void networksTheEngineDoesNotComputeAreRefusedWithTheReason() {
        assertNull(ConvNetModels.whyNot(ModelKind.CNN.network(784, 10, ModelOptions.defaults().withDataType(DataType.FLOAT))));
        String dilated = ConvNetModels.whyNot(leNet(ConvolutionMode.Truncate, 1, 2));
        assertNotNull(dilated);
        assertTrue(dilated.contains("dilat"), dilated);
        MultiLayerNetwork asymmetric = new MultiLayerNetwork(base()
                .layer(new ConvolutionLayer.Builder(2, 2).nOut(2).stride(1, 1).convolutionMode(ConvolutionMode.Same)
                        .activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(3).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(6, 6, 1)).build());
        asymmetric.init();
        String same = ConvNetModels.whyNot(asymmetric);
        assertTrue(same != null && same.contains("Same mode") && same.contains("Truncate"), same);
        MultiLayerNetwork average = new MultiLayerNetwork(base()
                .layer(new ConvolutionLayer.Builder(3, 3).nOut(2).activation(Activation.TANH).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.AVG).kernelSize(2, 2).stride(2, 2).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(3).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(8, 8, 1)).build());
        average.init();
        String avg = ConvNetModels.whyNot(average);
        assertTrue(avg != null && avg.contains("max pooling"), avg);
    }

    private static NeuralNetConfiguration.ListBuilder base() {
        return new NeuralNetConfiguration.Builder().seed(11).dataType(DataType.FLOAT).updater(new Sgd(0.1))
                .weightInit(WeightInit.XAVIER).list();
    }

    private static MultiLayerNetwork leNet(ConvolutionMode mode, int stride, int dilation) {
        MultiLayerNetwork net = new MultiLayerNetwork(base()
                .layer(new ConvolutionLayer.Builder(3, 3).nOut(4).stride(stride, stride).padding(1, 1)
                        .dilation(dilation, dilation).convolutionMode(mode).activation(Activation.TANH).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(1, 1).build())
                .layer(new ConvolutionLayer.Builder(2, 2).nOut(3).stride(2, 2).hasBias(false)
                        .convolutionMode(ConvolutionMode.Truncate).activation(Activation.RELU).build())
                .layer(new DenseLayer.Builder().nOut(6).activation(Activation.SIGMOID).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(3).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(12, 12, 2)).build());
        net.init();
        return net;
    }

    private static MultiLayerNetwork sameMode() {
        MultiLayerNetwork net = new MultiLayerNetwork(base()
                .layer(new ConvolutionLayer.Builder(5, 5).nOut(3).stride(2, 2).convolutionMode(ConvolutionMode.Same)
                        .activation(Activation.IDENTITY).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(2, 2).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(4).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(9, 9, 1)).build());
        net.init();
        return net;
    }

    private static int nIn(MultiLayerNetwork net) {
        var pre = (org.deeplearning4j.nn.conf.preprocessor.FeedForwardToCnnPreProcessor)
                net.getLayerWiseConfigurations().getInputPreProcess(0);
        return (int) (pre.getNumChannels() * pre.getInputHeight() * pre.getInputWidth());
    }

    private static INDArray labels(int b, int classes) {
        INDArray y = Nd4j.zeros(DataType.FLOAT, b, classes);
        for (int i = 0; i < b; i++) {
            y.putScalar(i, (i * 7 + 1) % classes, 1.0);
        }
        return y;
    }
}
