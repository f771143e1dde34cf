package org.dpdl4j.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.layers.BaseLayer;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.learning.config.Adam;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.learning.regularization.WeightDecay;

/** Weight decay is the decoupled {@code x <- (1 - eta*lambda) x - eta*g} of the Decor reference. */
class WeightDecayTest {
    private static final double ETA = 0.1;
    private static final double LAMBDA = 0.05;

    /** One parameter tensor before a step, its batch-mean gradient there, and after the step. */
    private record Tensor(INDArray before, INDArray meanGradient, INDArray after) {
        /** {@code shrink * before - eta * meanGradient}. */
        INDArray sgdStep(double shrink) {
            return before.mul(shrink).subi(meanGradient.mul(ETA));
        }
    }

    private record Step(Tensor weights, Tensor biases) {
    }

    private static Step oneStep(ModelOptions options) {
        DataSet data = TinyProblems.linear(8, 3);
        MultiLayerNetwork net = new MultiLayerNetwork(LeastSquaresModel.configuration(4, 3, true, options));
        net.init();
        // Non-zero biases, so that their decay is visible.
        UniformParameters.fill(net, 5, -1, 1);
        INDArray w0 = net.getParam("0_W").dup();
        INDArray b0 = net.getParam("0_b").dup();
        net.setInput(data.getFeatures());
        net.setLabels(data.getLabels());
        net.computeGradientAndScore();
        // DL4J's gradient is the batch sum; its updater divides by the batch size.
        int n = data.numExamples();
        INDArray gw = net.gradient().getGradientFor("0_W").dup().divi(n);
        INDArray gb = net.gradient().getGradientFor("0_b").dup().divi(n);
        net.fit(data);
        return new Step(new Tensor(w0, gw, net.getParam("0_W").dup()), new Tensor(b0, gb, net.getParam("0_b").dup()));
    }

    private static ModelOptions options() {
        return ModelOptions.defaults().withDataType(DataType.DOUBLE).withUpdater(new Sgd(ETA));
    }

    private static void assertClose(INDArray expected, INDArray actual) {
        assertTrue(expected.equalsWithEps(actual, 1e-12), "expected " + expected + " got " + actual);
    }

    @Test
    void sgdWithDecayShrinksEveryParameterByOneMinusEtaLambda() {
        Step step = oneStep(options().withWeightDecay(LAMBDA));
        assertClose(step.weights().sgdStep(1 - ETA * LAMBDA), step.weights().after());
        assertClose(step.biases().sgdStep(1 - ETA * LAMBDA), step.biases().after());
    }

    @Test
    void biasesCanBeLeftUndecayed() {
        Step step = oneStep(options().withWeightDecay(LAMBDA).withDecayBiases(false));
        assertClose(step.weights().sgdStep(1 - ETA * LAMBDA), step.weights().after());
        assertClose(step.biases().sgdStep(1), step.biases().after());
    }

    @Test
    void everyTrainableLayerCarriesExactlyOneDecayPerParameterKind() {
        MultiLayerConfiguration conf = MlpModel.configuration(3, List.of(4, 5), 2, Activation.RELU,
                options().withWeightDecay(LAMBDA));
        for (int i = 0; i < conf.getConfs().size(); i++) {
            BaseLayer layer = (BaseLayer) conf.getConf(i).getLayer();
            assertEquals(List.of(new WeightDecay(LAMBDA, true)), layer.getRegularization(), "layer " + i);
            assertEquals(List.of(new WeightDecay(LAMBDA, true)), layer.getRegularizationBias(), "layer " + i);
        }
    }

    @Test
    void withoutDecayTheStepIsPlainSgd() {
        Step step = oneStep(options());
        assertClose(step.weights().sgdStep(1), step.weights().after());
        assertClose(step.biases().sgdStep(1), step.biases().after());
    }

    @Test
    void decayIsAddedAfterAnAdaptiveUpdaterNotRescaledByIt() {
        ModelOptions adam = options().withUpdater(new Adam(ETA));
        Step plain = oneStep(adam);
        Step decayed = oneStep(adam.withWeightDecay(LAMBDA));
        // Same Adam step on the same gradient; the decay subtracts eta*lambda*x on top of it.
        assertClose(plain.weights().before().mul(ETA * LAMBDA), plain.weights().after().sub(decayed.weights().after()));
        assertClose(plain.biases().before().mul(ETA * LAMBDA), plain.biases().after().sub(decayed.biases().after()));
    }
}
