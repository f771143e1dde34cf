package org.dpdl4j.optim.layers;

import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInit;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/** Small networks and batches for the oracle tests, in double precision. */
final class OracleNetworks {
    private OracleNetworks() {
    }

    static NeuralNetConfiguration.ListBuilder base(long seed) {
        return new NeuralNetConfiguration.Builder().seed(seed).dataType(DataType.DOUBLE).updater(new Sgd(0.1))
                .weightInit(WeightInit.XAVIER).list();
    }

    /** A LeNet: two convolutions with pooling, a dense layer and a softmax output, on flat 12x12 images. */
    static MultiLayerNetwork leNet(ConvolutionMode mode, int stride, int padding, int dilation) {
        MultiLayerNetwork net = new MultiLayerNetwork(base(7)
                .layer(new ConvolutionLayer.Builder(3, 3).nOut(4).stride(stride, stride).padding(padding, padding)
                        .dilation(dilation, dilation).convolutionMode(mode).activation(Activation.TANH).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(1, 1).build())
                .layer(new ConvolutionLayer.Builder(2, 2).nOut(3).stride(2, 2).convolutionMode(ConvolutionMode.Truncate)
                        .activation(Activation.RELU).build())
                .layer(new DenseLayer.Builder().nOut(6).activation(Activation.SIGMOID).build())
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nOut(3).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(12, 12, 2)).build());
        net.init();
        return net;
    }

    /** Uniform features in [-1, 1]. */
    static INDArray features(long seed, long... shape) {
        Nd4j.getRandom().setSeed(seed);
        return Nd4j.rand(DataType.DOUBLE, shape).muli(2).subi(1);
    }

    /** One-hot labels of {@code classes} classes, cycling through them. */
    static INDArray oneHot(int batch, int classes) {
        INDArray y = Nd4j.zeros(DataType.DOUBLE, batch, classes);
        for (int i = 0; i < batch; i++) {
            y.putScalar(i, (i * 7 + 1) % classes, 1.0);
        }
        return y;
    }
}
