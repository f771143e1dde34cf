package org.dpdl4j.models;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.learning.config.Sgd;

class InvalidArgumentsTest {
    private static final ModelOptions OPTIONS = ModelOptions.defaults();

    /** The call throws IllegalArgumentException whose message contains every fragment. */
    private static void rejects(Executable call, String... fragments) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        for (String fragment : fragments) {
            assertTrue(e.getMessage().contains(fragment),
                    "message '" + e.getMessage() + "' should contain '" + fragment + "' of " + Arrays.toString(fragments));
        }
    }

    @Test
    void mlpRejectsEmptyHiddenLayersAndNonPositiveSizes() {
        rejects(() -> MlpModel.configuration(784, List.of(), 10, Activation.RELU, OPTIONS),
                "hiddenLayerSizes is empty", "SoftmaxRegressionModel");
        rejects(() -> MlpModel.configuration(784, List.of(128, 0), 10, Activation.RELU, OPTIONS),
                "hiddenLayerSizes[1]", "got 0");
        rejects(() -> MlpModel.configuration(784, Arrays.asList(128, null), 10, Activation.RELU, OPTIONS),
                "hiddenLayerSizes[1] is null");
        rejects(() -> MlpModel.configuration(0, List.of(128), 10, Activation.RELU, OPTIONS), "nIn", "got 0");
        rejects(() -> MlpModel.configuration(784, List.of(128), -3, Activation.RELU, OPTIONS), "nOut", "got -3");
    }

    @Test
    void logisticRegressionHasExactlyOneOutput() {
        rejects(() -> LogisticRegressionModel.configuration(123, 2, OPTIONS), "nOut must be 1", "got 2", "softmax");
        rejects(() -> ModelKind.LOGISTIC.configuration(123, 10, OPTIONS), "nOut must be 1", "got 10");
        rejects(() -> LogisticRegressionModel.configuration(-1, OPTIONS), "nIn", "got -1");
    }

    @Test
    void softmaxRegressionNeedsTwoClasses() {
        rejects(() -> SoftmaxRegressionModel.configuration(784, 1, OPTIONS), "at least 2", "logistic");
        rejects(() -> SoftmaxRegressionModel.configuration(784, 0, OPTIONS), "nClasses", "got 0");
    }

    @Test
    void leastSquaresNeedsPositiveSizes() {
        rejects(() -> LeastSquaresModel.configuration(0, 1, true, OPTIONS), "least squares", "nIn");
        rejects(() -> LeastSquaresModel.configuration(10, 0, false, OPTIONS), "least squares", "nOut");
    }

    @Test
    void dlgNetworkChecksClassesAndImageShapes() {
        rejects(() -> DlgLeNetModel.configuration(ImageShape.MNIST, 1, DlgLeNetModel.InputFormat.FLAT, OPTIONS),
                "nClasses", "at least 2");
        rejects(() -> new ImageShape(0, 28, 28), "channels", "got 0");
        rejects(() -> new ImageShape(1, 28, -28), "width");
        rejects(() -> ImageShape.squareFromFlatSize(785), "785", "image shape (channels, height, width)");
        rejects(() -> ModelKind.DLG_LENET.configuration(785, 10, OPTIONS), "785");
        rejects(() -> ModelKind.DLG_LENET.configuration(784, 10, OPTIONS,
                Architecture.defaults().withImageShape(ImageShape.CIFAR)), "3x32x32", "nIn = 784");
    }

    @Test
    void optionsRejectBadValues() {
        rejects(() -> OPTIONS.withWeightDecay(-1e-5), "weightDecay", "-1.0E-5");
        rejects(() -> OPTIONS.withWeightDecay(Double.NaN), "weightDecay");
        rejects(() -> OPTIONS.withDataType(DataType.INT32), "cannot hold network parameters", "FLOAT");
        assertThrows(NullPointerException.class, () -> OPTIONS.withUpdater(null));
        assertThrows(NullPointerException.class, () -> new Architecture(List.of(), null, true, null));
    }

    @Test
    void unknownModelNamesListTheKnownOnes() {
        rejects(() -> ModelKind.fromCliName("rnn"), "unknown model 'rnn'", "mlp", "logistic", "softmax", "cnn",
                "least-squares", "dlg-lenet");
    }

    @Test
    void optionsCopyTheMutableUpdater() {
        Sgd sgd = new Sgd(0.5);
        ModelOptions options = OPTIONS.withUpdater(sgd);
        sgd.setLearningRate(7.0);
        assertTrue(((Sgd) options.updater()).getLearningRate() == 0.5);
        ((Sgd) options.updater()).setLearningRate(9.0);
        assertTrue(((Sgd) options.updater()).getLearningRate() == 0.5);
    }
}
