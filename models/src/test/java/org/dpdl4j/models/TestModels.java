package org.dpdl4j.models;

import java.util.List;
import java.util.function.Supplier;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.learning.config.Adam;

/** One small configuration of every builder, shared by the tests. */
final class TestModels {
    private TestModels() {
    }

    static final ModelOptions DOUBLE_OPTIONS = ModelOptions.defaults().withDataType(DataType.DOUBLE).withSeed(42);

    /** A named configuration factory, so parameterised tests print readable names. */
    record Named(String name, Supplier<MultiLayerConfiguration> factory) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Named> all() {
        ModelOptions decayed = DOUBLE_OPTIONS.withWeightDecay(1e-5).withUpdater(new Adam(1e-3));
        return List.of(
                new Named("mlp 784-128-10", () -> MlpModel.paperConfiguration(784, 10, DOUBLE_OPTIONS)),
                new Named("mlp 5-8-4-1 tanh, decay, adam",
                        () -> MlpModel.configuration(5, List.of(8, 4), 1, Activation.TANH, decayed)),
                new Named("logistic 123", () -> LogisticRegressionModel.configuration(123, DOUBLE_OPTIONS)),
                new Named("softmax 784-10", () -> SoftmaxRegressionModel.configuration(784, 10, decayed)),
                new Named("least squares 10-1 bias", () -> LeastSquaresModel.configuration(10, 1, true, DOUBLE_OPTIONS)),
                new Named("least squares 6-3 no bias", () -> LeastSquaresModel.configuration(6, 3, false, decayed)),
                new Named("dlg mnist flat", () -> DlgLeNetModel.configuration(ImageShape.MNIST, 10,
                        DlgLeNetModel.InputFormat.FLAT, DOUBLE_OPTIONS)),
                new Named("dlg cifar image float", () -> DlgLeNetModel.configuration(ImageShape.CIFAR, 100,
                        DlgLeNetModel.InputFormat.IMAGE, ModelOptions.defaults())));
    }
}
