package org.dpdl4j.attacks.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.InputNormalization;
import org.dpdl4j.attacks.LabelRows;
import org.dpdl4j.attacks.TestNetworks;
import org.dpdl4j.attacks.network.NetworkGradients;
import org.dpdl4j.models.ImageShape;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** The observers turn messages into the right vector, scale and noise; the scenario registry names its options. */
class ObserversTest {
    private static final ImageShape SHAPE = new ImageShape(1, 4, 4);

    private static GroundTruth truth(int batch, long seed) {
        java.util.Random random = new java.util.Random(seed);
        double[] values = new double[batch * 16];
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextDouble();
        }
        int[] labels = new int[batch];
        for (int i = 0; i < batch; i++) {
            labels[i] = random.nextInt(3);
        }
        return new GroundTruth(Nd4j.create(values, new long[] {batch, 16}, DataType.DOUBLE), labels, SHAPE,
                InputNormalization.NONE);
    }

    @Test
    void fedAvgUploadEqualsDl4jSgdStepAndIsMinusLearningRateTimesTheMeanGradient() {
        // TestNetworks builds with Sgd(0.1): DL4J's own fit on a copy is the client's local step.
        MultiLayerNetwork global = TestNetworks.mlp(16, new int[] {5}, 3, Activation.TANH, 1, DataType.DOUBLE);
        GroundTruth truth = truth(3, 5);
        INDArray labels = LabelRows.of(truth.labels(), 3, DataType.DOUBLE);
        MultiLayerNetwork client = global.clone();
        client.fit(truth.inputs(), labels);

        FedAvgUpload upload = FedAvgClientStep.upload(global, truth.inputs(), labels, 0.1, 0.0, 1);
        double difference = upload.clientParameters().reshape(-1).sub(client.params().reshape(-1))
                .amaxNumber().doubleValue();
        assertEquals(0.0, difference, 1e-12, "one local step equals DL4J's fit with Sgd(0.1)");

        AttackCase c = new FedAvgServerObserver().observe(upload, new CaseContext(truth, 4, 0.5, Map.of()));
        assertEquals(-0.1, c.scale().factor(), 0.0);
        assertTrue(c.scale().knownToAttacker());
        INDArray mean = NetworkGradients.sumOverBatch(global, truth.inputs(), labels).divi(3);
        assertTrue(c.observed().div(c.scale().factor()).equalsWithEps(mean, 1e-12), "update / -lr = mean gradient");
        assertEquals("fedavg", c.provenance().protocol());
        assertEquals("server", c.provenance().observer());
        assertEquals(4, c.provenance().round());
        assertEquals("0.1", c.provenance().details().get("learning_rate"));
    }

    @Test
    void fedAvgObserverRefusesSeveralLocalSteps() {
        MultiLayerNetwork global = TestNetworks.softmaxRegression(16, 3, 1, DataType.DOUBLE);
        FedAvgUpload upload = new FedAvgUpload(global, global.params().dup(), 0.1, 2, 1, 0.0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new FedAvgServerObserver().observe(upload, new CaseContext(truth(1, 2), 0, Double.NaN,
                        Map.of())));
        assertTrue(e.getMessage().contains("L = 1"), e.getMessage());
    }

    @Test
    void releasedGradientCarriesGaussianNoiseOfTheStatedStd() {
        MultiLayerNetwork model = TestNetworks.mlp(16, new int[] {200}, 3, Activation.SIGMOID, 3, DataType.DOUBLE);
        GroundTruth truth = truth(1, 7);
        INDArray labels = LabelRows.of(truth.labels(), 3, DataType.DOUBLE);
        INDArray clean = NetworkGradients.sumOverBatch(model, truth.inputs(), labels);
        GradientRelease release = CentralGradientRelease.release(model, truth.inputs(), labels, 0.25, 11);
        INDArray noise = release.gradient().sub(clean);
        double n = noise.length();
        double mean = noise.sumNumber().doubleValue() / n;
        double std = Math.sqrt(noise.mul(noise).sumNumber().doubleValue() / n - mean * mean);
        // n = 4,003 draws: the sample std is within 3% of 0.25 and the mean within 4 standard errors of 0.
        assertEquals(0.25, std, 0.0075, "noise std");
        assertEquals(0.0, mean, 4 * 0.25 / Math.sqrt(n), "noise mean");
        AttackCase c = new CentralGradientObserver().observe(release, new CaseContext(truth, 0, Double.NaN, Map.of()));
        assertEquals(0.25, c.noiseStd(), 0.0);
        assertEquals(1.0, c.scale().factor(), 0.0);
        GradientRelease again = CentralGradientRelease.release(model, truth.inputs(), labels, 0.25, 11);
        assertTrue(again.gradient().equals(release.gradient()), "same seed, same noise");
    }

    @Test
    void registryNamesTheSupportedAlgorithmsAndObservers() {
        assertEquals(java.util.List.of("fedavg", "central"), AttackScenarios.names());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> AttackScenarios.of("decor"));
        assertTrue(unknown.getMessage().contains("decor") && unknown.getMessage().contains("fedavg, central"),
                unknown.getMessage());
        MultiLayerNetwork net = TestNetworks.softmaxRegression(16, 3, 1, DataType.DOUBLE);
        ScenarioRequest request = new ScenarioRequest(net, truth(1, 3), "neighbour", 0.1, 0, 1, 0, Double.NaN,
                Map.of());
        IllegalArgumentException observer = assertThrows(IllegalArgumentException.class,
                () -> AttackScenarios.of("FedAvg").build(request));
        assertTrue(observer.getMessage().contains("supported: server"), observer.getMessage());
    }
}
