package org.dpdl4j.userlayer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.misc.ElementWiseMultiplicationLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInit;
import org.dpdl4j.nn.UnsupportedModelException;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.optim.ExampleGradients;
import org.dpdl4j.optim.PerExampleGradientOracle;
import org.dpdl4j.optim.PerExampleGradientOracle.Comparison;
import org.dpdl4j.optim.PrivateTrainer;
import org.dpdl4j.optim.layers.DenseExampleLayer;
import org.dpdl4j.optim.layers.ExampleLayerRegistry;
import org.dpdl4j.optim.layers.LayeredGradients;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/**
 * A layer type added from outside the library (this package, one registration) reaches private training end to end:
 * its per-example norms and clipped sum agree with DL4J's own backpropagation one example at a time, a
 * {@link PrivateTrainer} given the registry trains a network with it, and without the registry the network is refused
 * naming the layer and the way to register it.
 */
class UserLayerTypeTest {
    private static final ExampleLayerRegistry WITH_ELEMENT_WISE = ExampleLayerRegistry.standard()
            .with(ElementWiseMultiplicationLayer.class, (context, problems) -> new ElementWiseExampleLayer(context));

    private static MultiLayerNetwork network(DataType type) {
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(5).dataType(type)
                .updater(new Sgd(0.5)).weightInit(WeightInit.XAVIER).list()
                .layer(new DenseLayer.Builder().nIn(6).nOut(8).activation(Activation.TANH).build())
                .layer(new ElementWiseMultiplicationLayer.Builder().nIn(8).nOut(8).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nIn(8).nOut(3).activation(Activation.SOFTMAX).build())
                .build());
        net.init();
        // Spread the element-wise weights and biases away from their initial values so that every term matters.
        INDArray params = net.getLayer(1).params();
        SplittableRandom r = new SplittableRandom(3);
        double[] values = new double[(int) params.length()];
        for (int i = 0; i < values.length; i++) {
            values[i] = 2 * r.nextDouble() - 0.5;
        }
        params.assign(Nd4j.create(values).castTo(type).reshape(params.shape()));
        return net;
    }

    /** Three well-separated classes in six features, labels one-hot. */
    private static INDArray[] data(DataType type, int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][6];
        double[][] y = new double[n][3];
        for (int i = 0; i < n; i++) {
            int k = i % 3;
            for (int j = 0; j < 6; j++) {
                x[i][j] = (j / 2 == k ? 1.5 : 0) + 0.5 * r.nextGaussian();
            }
            y[i][k] = 1;
        }
        return new INDArray[]{Nd4j.create(x).castTo(type), Nd4j.create(y).castTo(type)};
    }

    @Test
    void theUsersLayerAgreesWithDl4jsBackpropagationPerExample() {
        MultiLayerNetwork net = network(DataType.DOUBLE);
        INDArray[] d = data(DataType.DOUBLE, 7, 1);
        INDArray truth = PerExampleGradientOracle.perExampleGradients(net, d[0], d[1]);
        ExampleGradients engine = ExampleGradients.of(net, ComputeDevice.CPU, WITH_ELEMENT_WISE);
        for (double clip : new double[]{1e-3, 1e3}) {
            Comparison c = PerExampleGradientOracle.compare(truth, engine, net.params(), d[0], d[1], clip);
            assertTrue(c.maxNormRelativeError() < 1e-10, "norms off by " + c.maxNormRelativeError());
            assertTrue(c.sumRelativeError() < 1e-10, "clipped sum off by " + c.sumRelativeError());
        }
    }

    @Test
    void withoutTheRegistryTheNetworkIsRefusedNamingTheLayerAndTheFix() {
        MultiLayerNetwork net = network(DataType.FLOAT);
        INDArray[] d = data(DataType.FLOAT, 60, 2);
        DpSgdConfig config = DpSgdConfig.builder().clipNorm(1).noiseMultiplier(1).delta(1e-3).batchSize(20).epochs(1).build();
        UnsupportedModelException e = assertThrows(UnsupportedModelException.class,
                () -> PrivateTrainer.builder(net, config).data(d[0], d[1]).build());
        assertTrue(e.getMessage().contains("layer 1 (ElementWiseMultiplicationLayer)"), e.getMessage());
        assertTrue(e.getMessage().contains("ExampleLayerRegistry.with"), e.getMessage());
    }

    @Test
    void aPrivateTrainerGivenTheRegistryTrainsTheNetwork() {
        MultiLayerNetwork net = network(DataType.FLOAT);
        INDArray[] d = data(DataType.FLOAT, 600, 3);
        double before = net.score(new org.nd4j.linalg.dataset.DataSet(d[0], d[1]));
        DpSgdConfig config = DpSgdConfig.builder().clipNorm(1).targetEpsilon(4).delta(1e-4).batchSize(60).epochs(8).build();
        try (PrivateTrainer trainer = PrivateTrainer.builder(net, config).data(d[0], d[1]).layers(WITH_ELEMENT_WISE)
                .noise(SeededNoiseSource.forKey(new NoiseKey(7, "user-layer", 0, 0))).sampling(new SplittableRandom(7)).build()) {
            trainer.fit();
            assertTrue(trainer.epsilon() <= 4 + 1e-9, "spent " + trainer.epsilon());
        }
        double after = net.score(new org.nd4j.linalg.dataset.DataSet(d[0], d[1]));
        assertTrue(after < 0.7 * before, "loss " + before + " -> " + after);
    }

    @Test
    void aRegistryOfOtherLayersKeepsTheFastEngineOfAPlainNetwork() {
        MultiLayerNetwork plain = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(1).list()
                .layer(new DenseLayer.Builder().nIn(6).nOut(4).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nIn(4).nOut(3).activation(Activation.SOFTMAX).build())
                .build());
        plain.init();
        assertFalse(ExampleGradients.of(plain, ComputeDevice.CPU, WITH_ELEMENT_WISE) instanceof LayeredGradients);
        ExampleLayerRegistry ownDense = ExampleLayerRegistry.standard()
                .with(DenseLayer.class, (context, problems) -> {
                    DenseLayer conf = (DenseLayer) context.layer();
                    return new DenseExampleLayer(context, conf.getActivationFn(), conf.hasBias(), conf.getNIn());
                });
        assertInstanceOf(LayeredGradients.class, ExampleGradients.of(plain, ComputeDevice.CPU, ownDense),
                "a registry that handles DenseLayer its own way must be the one that runs");
    }
}
