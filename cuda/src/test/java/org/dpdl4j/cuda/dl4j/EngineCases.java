package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.TestNetworks;
import org.junit.jupiter.params.provider.Arguments;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import java.util.stream.Stream;

/** The networks and batches the engine is checked on, the same kinds as the host engine's tests. */
final class EngineCases {
    private EngineCases() {
    }

    /** name, hidden activation, output activation, loss, layer sizes, batch size. */
    static Stream<Arguments> networks() {
        return Stream.of(
                Arguments.of("MNIST MLP 784-128-10, relu, softmax", Activation.RELU, Activation.SOFTMAX, LossFunction.MCXENT,
                        new int[]{784, 128, 10}, 24),
                Arguments.of("logistic regression (a9a-shaped)", Activation.IDENTITY, Activation.SIGMOID, LossFunction.XENT,
                        new int[]{123, 1}, 40),
                Arguments.of("softmax regression", Activation.IDENTITY, Activation.SOFTMAX, LossFunction.NEGATIVELOGLIKELIHOOD,
                        new int[]{50, 7}, 31),
                Arguments.of("tanh layers", Activation.TANH, Activation.SOFTMAX, LossFunction.MCXENT,
                        new int[]{30, 20, 12, 5}, 17),
                Arguments.of("leaky relu, several binary outputs", Activation.LEAKYRELU, Activation.SIGMOID, LossFunction.XENT,
                        new int[]{20, 16, 4}, 13),
                Arguments.of("squared error after tanh", Activation.SIGMOID, Activation.TANH, LossFunction.L2,
                        new int[]{12, 9, 3}, 11),
                Arguments.of("least squares (MSE)", Activation.IDENTITY, Activation.IDENTITY, LossFunction.MSE,
                        new int[]{30, 2}, 9));
    }

    static MultiLayerNetwork network(Activation hidden, Activation out, LossFunction loss, int[] sizes) {
        return TestNetworks.mlp(DataType.FLOAT, 3, hidden, out, loss, new Sgd(0.1), sizes);
    }

    static INDArray features(int b, int[] sizes) {
        return TestNetworks.features(DataType.FLOAT, 10 + b, b, sizes[0]);
    }

    static INDArray labels(LossFunction loss, int b, int[] sizes) {
        int k = sizes[sizes.length - 1];
        return loss == LossFunction.L2 || loss == LossFunction.MSE
                ? TestNetworks.features(DataType.FLOAT, 20 + b, b, k) : TestNetworks.oneHot(DataType.FLOAT, 20 + b, b, k);
    }

    /** An array's values in row-major order, as the engine's float[] API takes them. */
    static float[] rowMajor(INDArray a) {
        return a.dup('c').reshape(a.length()).toFloatVector();
    }
}
