package org.dpdl4j.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigurationRoundTripTest {

    static List<TestModels.Named> models() {
        return TestModels.all();
    }

    @ParameterizedTest
    @MethodSource("models")
    void jsonRoundTripGivesAnEqualConfigurationAndEqualJson(TestModels.Named model) {
        MultiLayerConfiguration conf = model.factory().get();
        String json = conf.toJson();
        MultiLayerConfiguration back = MultiLayerConfiguration.fromJson(json);
        assertEquals(conf, back);
        assertEquals(json, back.toJson());
    }

    @ParameterizedTest
    @MethodSource("models")
    void roundTrippedConfigurationInitialisesIdenticalParameters(TestModels.Named model) {
        MultiLayerConfiguration conf = model.factory().get();
        MultiLayerNetwork original = new MultiLayerNetwork(conf);
        original.init();
        MultiLayerNetwork restored = new MultiLayerNetwork(MultiLayerConfiguration.fromJson(conf.toJson()));
        restored.init();
        assertEquals(original.params(), restored.params());
    }

    @Test
    void dlgNetworkFromRoundTrippedConfigurationHasIdenticalUniformParameters() {
        ModelOptions options = TestModels.DOUBLE_OPTIONS;
        MultiLayerNetwork original = DlgLeNetModel.network(ImageShape.MNIST, 10, DlgLeNetModel.InputFormat.FLAT,
                options);
        MultiLayerConfiguration back = MultiLayerConfiguration.fromJson(original.getLayerWiseConfigurations().toJson());
        MultiLayerNetwork restored = new MultiLayerNetwork(back);
        restored.init();
        UniformParameters.fill(restored, options.seed(), -DlgLeNetModel.INIT_BOUND, DlgLeNetModel.INIT_BOUND);
        assertEquals(original.params(), restored.params());
    }

    @Test
    void differentSeedsGiveDifferentParameters() {
        MultiLayerNetwork a = new MultiLayerNetwork(SoftmaxRegressionModel.configuration(20, 3, TestModels.DOUBLE_OPTIONS));
        a.init();
        MultiLayerNetwork b = new MultiLayerNetwork(SoftmaxRegressionModel.configuration(20, 3,
                TestModels.DOUBLE_OPTIONS.withSeed(43)));
        b.init();
        assertNotEquals(a.params(), b.params());
    }
}
