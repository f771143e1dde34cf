package org.dpdl4j.models;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.learning.config.Sgd;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class FitLowersScoreTest {
    private static final Logger LOG = LoggerFactory.getLogger(FitLowersScoreTest.class);

    /** A model on its tiny problem, the number of full-batch steps and the score ratio it must reach. */
    record Case(ModelKind kind, int nOut, Architecture architecture, DataSet data, double learningRate, int steps,
                double maxRatio) {
        @Override
        public String toString() {
            return kind.cliName() + " nOut=" + nOut;
        }
    }

    static List<Case> cases() {
        Architecture arch = Architecture.defaults().withHiddenLayers(List.of(16), Activation.RELU);
        return List.of(
                new Case(ModelKind.LOGISTIC, 1, arch, TinyProblems.binary(64, 1), 0.5, 50, 0.6),
                new Case(ModelKind.SOFTMAX, 3, arch, TinyProblems.clusters(60, 2), 0.5, 50, 0.1),
                new Case(ModelKind.MLP, 3, arch, TinyProblems.clusters(60, 3), 0.3, 50, 0.1),
                new Case(ModelKind.MLP, 1, arch, TinyProblems.binary(64, 4), 0.3, 50, 0.4),
                new Case(ModelKind.LEAST_SQUARES, 3, arch, TinyProblems.linear(64, 5), 0.1, 50, 0.01),
                new Case(ModelKind.DLG_LENET, 2, arch, TinyProblems.halves(32, 6), 0.5, 30, 0.3));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void shortFitLowersTheScore(Case c) {
        ModelOptions options = ModelOptions.defaults().withDataType(DataType.DOUBLE)
                .withUpdater(new Sgd(c.learningRate())).withSeed(11);
        int nIn = (int) c.data().getFeatures().size(1);
        MultiLayerNetwork net = c.kind().network(nIn, c.nOut(), options, c.architecture());
        double before = net.score(c.data());
        for (int i = 0; i < c.steps(); i++) {
            net.fit(c.data());
        }
        double after = net.score(c.data());
        LOG.info("{}: score {} -> {} after {} steps", c, before, after, c.steps());
        assertTrue(Double.isFinite(after) && after < c.maxRatio() * before,
                c + ": score " + before + " -> " + after + ", expected below " + c.maxRatio() + " x before");
    }
}
