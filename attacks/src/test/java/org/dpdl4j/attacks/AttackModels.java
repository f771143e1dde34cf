package org.dpdl4j.attacks;

import java.util.List;
import java.util.Map;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInit;
import org.dpdl4j.attacks.observe.CentralGradientScenario;
import org.dpdl4j.attacks.observe.FedAvgScenario;
import org.dpdl4j.attacks.observe.ScenarioRequest;
import org.dpdl4j.models.MlpModel;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.models.SoftmaxRegressionModel;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;

/** The project's models, built with the model builders, and attack cases on them. */
public final class AttackModels {
    private AttackModels() {
    }

    /** MNIST softmax regression (784 -> 10) with DL4J's Xavier initialisation. */
    public static MultiLayerNetwork softmaxRegression(DataType dataType) {
        MultiLayerNetwork net = new MultiLayerNetwork(SoftmaxRegressionModel.configuration(784, 10,
                ModelOptions.defaults().withDataType(dataType)));
        net.init();
        return net;
    }

    /** MNIST softmax regression at its zero initialisation (the usual start of a convex model). */
    public static MultiLayerNetwork zeroSoftmaxRegression(DataType dataType) {
        MultiLayerNetwork net = new MultiLayerNetwork(SoftmaxRegressionModel.configuration(784, 10,
                ModelOptions.defaults().withDataType(dataType).withWeightInit(WeightInit.ZERO)));
        net.init();
        return net;
    }

    /** MLP 784-hidden-10 with the given hidden activation and Xavier initialisation. */
    public static MultiLayerNetwork mlp(int hidden, Activation activation, DataType dataType) {
        MultiLayerNetwork net = new MultiLayerNetwork(MlpModel.configuration(784, List.of(hidden), 10, activation,
                ModelOptions.defaults().withDataType(dataType)));
        net.init();
        return net;
    }

    /** The case of a gradient released directly, with Gaussian noise of the given std (0 for none). */
    public static AttackCase centralCase(MultiLayerNetwork net, GroundTruth truth, double noiseStd) {
        return new CentralGradientScenario().build(new ScenarioRequest(net, truth, "gradient", 0.1, noiseStd, 99L, 0,
                Double.NaN, Map.of()));
    }

    /** The case of the FedAvg server seeing one local SGD step of the client holding the batch. */
    public static AttackCase fedAvgCase(MultiLayerNetwork net, GroundTruth truth, double learningRate) {
        return new FedAvgScenario().build(new ScenarioRequest(net, truth, "server", learningRate, 0.0, 99L, 0,
                Double.NaN, Map.of()));
    }
}
