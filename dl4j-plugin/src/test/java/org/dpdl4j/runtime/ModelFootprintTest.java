package org.dpdl4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.dpdl4j.models.MlpModel;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;

class ModelFootprintTest {

    private static MultiLayerConfiguration mlp(Integer... hidden) {
        return MlpModel.configuration(784, List.of(hidden), 10, Activation.RELU, ModelOptions.defaults());
    }

    @Test
    void anMlpsSizesComeFromItsConfiguration() {
        ModelFootprint m = ModelFootprint.of(mlp(128));
        assertEquals(784 * 128 + 128 + 128 * 10 + 10, m.parameters());
        assertEquals(4, m.valueBytes());
        assertEquals(784, m.inputs());
        assertEquals(128 + 10, m.activations());
        assertEquals(0, m.unfolded());
        assertEquals("a model of 101,770 parameters", m.describe());
    }

    @Test
    void aNetworkOfTenBillionParametersIsDescribedWithoutBeingBuilt() {
        ModelFootprint m = ModelFootprint.of(mlp(100_000, 100_000));
        assertEquals(784L * 100_000 + 100_000 + 100_000L * 100_000 + 100_000 + 100_000 * 10 + 10, m.parameters());
        assertEquals(4e10, m.parameterBytes(1), 1e9);
    }

    @Test
    void aConvolutionCountsItsUnfoldedInputAndItsPerExampleNormTerms() {
        ModelFootprint m = ModelFootprint.of(ModelKind.CNN.configuration(784, 10, ModelOptions.defaults()));
        assertEquals(26_010, m.parameters());
        assertTrue(m.unfolded() > m.activations(), m.toString());
        assertTrue(m.exampleNorms() > 0, m.toString());
    }
}
