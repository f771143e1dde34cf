package org.dpdl4j.attacks;

import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInit;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/** Small DL4J networks for tests, built directly with DL4J's builders. */
public final class TestNetworks {
    private TestNetworks() {
    }

    private static NeuralNetConfiguration.ListBuilder base(long seed, DataType dataType) {
        return new NeuralNetConfiguration.Builder().seed(seed).dataType(dataType).updater(new Sgd(0.1))
                .weightInit(WeightInit.XAVIER).list();
    }

    /** Softmax regression {@code nIn -> classes}. */
    public static MultiLayerNetwork softmaxRegression(int nIn, int classes, long seed, DataType dataType) {
        MultiLayerConfiguration conf = base(seed, dataType)
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nIn(nIn).nOut(classes)
                        .activation(Activation.SOFTMAX).build())
                .build();
        return init(conf, seed, 0.1);
    }

    /** Linear least squares {@code nIn -> outputs} with an intercept: identity + half squared error. */
    public static MultiLayerNetwork leastSquares(int nIn, int outputs, long seed, DataType dataType) {
        MultiLayerConfiguration conf = base(seed, dataType)
                .layer(new OutputLayer.Builder(new org.dpdl4j.models.LossHalfSquaredError()).nIn(nIn).nOut(outputs)
                        .activation(Activation.IDENTITY).build())
                .build();
        return init(conf, seed, 0.1);
    }

    /** Logistic regression {@code nIn -> 1} with sigmoid + XENT. */
    public static MultiLayerNetwork logistic(int nIn, long seed, DataType dataType) {
        MultiLayerConfiguration conf = base(seed, dataType)
                .layer(new OutputLayer.Builder(LossFunction.XENT).nIn(nIn).nOut(1)
                        .activation(Activation.SIGMOID).build())
                .build();
        return init(conf, seed, 0.1);
    }

    /** MLP {@code nIn -> hidden... -> classes} with the given hidden activation and a softmax output. */
    public static MultiLayerNetwork mlp(int nIn, int[] hidden, int classes, Activation activation, long seed,
                                        DataType dataType) {
        var layers = base(seed, dataType);
        int previous = nIn;
        for (int h : hidden) {
            layers.layer(new DenseLayer.Builder().nIn(previous).nOut(h).activation(activation).build());
            previous = h;
        }
        layers.layer(new OutputLayer.Builder(LossFunction.MCXENT).nIn(previous).nOut(classes)
                .activation(Activation.SOFTMAX).build());
        return init(layers.build(), seed, 0.1);
    }

    /**
     * A small sigmoid/tanh CNN on {@code channels x size x size} flat input: conv 3x3 stride 2 padding 1 (3
     * filters, sigmoid), conv 3x3 stride 1 Same mode (2 filters, tanh), softmax output.
     */
    public static MultiLayerNetwork tinyCnn(int channels, int size, int classes, long seed, DataType dataType) {
        MultiLayerConfiguration conf = base(seed, dataType)
                .layer(new ConvolutionLayer.Builder(3, 3).stride(2, 2).padding(1, 1).nOut(3)
                        .convolutionMode(ConvolutionMode.Truncate).activation(Activation.SIGMOID).build())
                .layer(new ConvolutionLayer.Builder(3, 3).stride(1, 1).nOut(2)
                        .convolutionMode(ConvolutionMode.Same).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(classes).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(size, size, channels))
                .build();
        return init(conf, seed, 0.5);
    }

    /**
     * A CNN exercising asymmetric padding and dilation: conv 3x3 stride 2 in Same mode (one extra zero row and
     * column at the bottom/right for even sizes, 2 filters, sigmoid), conv 3x3 dilation 2 padding 2 (2 filters,
     * tanh), softmax output.
     */
    public static MultiLayerNetwork asymmetricCnn(int channels, int size, int classes, long seed, DataType dataType) {
        MultiLayerConfiguration conf = base(seed, dataType)
                .layer(new ConvolutionLayer.Builder(3, 3).stride(2, 2).nOut(2)
                        .convolutionMode(ConvolutionMode.Same).activation(Activation.SIGMOID).build())
                .layer(new ConvolutionLayer.Builder(3, 3).stride(1, 1).dilation(2, 2).padding(2, 2).nOut(2)
                        .convolutionMode(ConvolutionMode.Truncate).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(classes).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(size, size, channels))
                .build();
        return init(conf, seed, 0.5);
    }

    /**
     * A tanh CNN with pooling, shaped like the private CNN of DP image classification: conv 3x3 stride 1 (3 filters),
     * {@code pooling} 2x2 stride 1, conv 3x3 stride 2 (2 filters, sigmoid), {@code pooling} 2x2 stride 1, dense 5
     * (tanh), softmax output.
     */
    public static MultiLayerNetwork pooledCnn(org.deeplearning4j.nn.conf.layers.SubsamplingLayer.PoolingType pooling,
                                              int channels, int size, int classes, long seed, DataType dataType) {
        MultiLayerConfiguration conf = base(seed, dataType)
                .layer(new ConvolutionLayer.Builder(3, 3).stride(1, 1).nOut(3)
                        .convolutionMode(ConvolutionMode.Truncate).activation(Activation.TANH).build())
                .layer(new org.deeplearning4j.nn.conf.layers.SubsamplingLayer.Builder(pooling).kernelSize(2, 2)
                        .stride(1, 1).build())
                .layer(new ConvolutionLayer.Builder(3, 3).stride(2, 2).nOut(2)
                        .convolutionMode(ConvolutionMode.Truncate).activation(Activation.SIGMOID).build())
                .layer(new org.deeplearning4j.nn.conf.layers.SubsamplingLayer.Builder(pooling).kernelSize(2, 2)
                        .stride(1, 1).build())
                .layer(new org.deeplearning4j.nn.conf.layers.DenseLayer.Builder().nOut(5).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(classes).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(size, size, channels))
                .build();
        return init(conf, seed, 0.5);
    }

    /**
     * The DLG sigmoid LeNet (three 5x5 convolutions, 12 channels, padding 2, strides 2, 2, 1, sigmoid; softmax
     * output) on flat {@code 1 x 28 x 28} rows, every parameter from {@code U(-0.5, 0.5)}.
     */
    public static MultiLayerNetwork dlgLeNet(long seed, DataType dataType) {
        var layers = base(seed, dataType);
        for (int stride : new int[] {2, 2, 1}) {
            layers.layer(new ConvolutionLayer.Builder(5, 5).stride(stride, stride).padding(2, 2).nOut(12)
                    .convolutionMode(ConvolutionMode.Truncate).activation(Activation.SIGMOID).build());
        }
        layers.layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(10).activation(Activation.SOFTMAX).build());
        layers.setInputType(InputType.convolutionalFlat(28, 28, 1));
        return init(layers.build(), seed, 0.5);
    }

    /** Initialises the network, then sets every parameter (biases included) to {@code U(-bound, bound)}. */
    private static MultiLayerNetwork init(MultiLayerConfiguration conf, long seed, double bound) {
        MultiLayerNetwork net = new MultiLayerNetwork(conf);
        net.init();
        java.util.Random random = new java.util.Random(seed);
        double[] values = new double[(int) net.numParams()];
        for (int i = 0; i < values.length; i++) {
            values[i] = (2 * random.nextDouble() - 1) * bound;
        }
        net.setParams(Nd4j.createFromArray(values).reshape(1, values.length).castTo(net.params().dataType()));
        return net;
    }

    /** One-hot rows for the given classes. */
    public static INDArray oneHot(int[] classes, int numClasses, DataType dataType) {
        INDArray y = Nd4j.zeros(dataType, classes.length, numClasses);
        for (int i = 0; i < classes.length; i++) {
            y.putScalar(i, classes[i], 1.0);
        }
        return y;
    }
}
