package org.dpdl4j.experiments.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.deeplearning4j.arbiter.ComputationGraphSpace;
import org.deeplearning4j.arbiter.DL4JConfiguration;
import org.deeplearning4j.arbiter.MultiLayerSpace;
import org.deeplearning4j.arbiter.conf.updater.SgdSpace;
import org.deeplearning4j.arbiter.layers.DenseLayerSpace;
import org.deeplearning4j.arbiter.layers.OutputLayerSpace;
import org.deeplearning4j.arbiter.optimize.parameter.continuous.ContinuousParameterSpace;
import org.deeplearning4j.arbiter.optimize.parameter.integer.IntegerParameterSpace;
import org.deeplearning4j.datasets.iterator.utilty.ListDataSetIterator;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.privacy.accounting.RepeatAndSelectEvent;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.tuning.CandidateCount;
import org.junit.jupiter.api.Test;
import org.nd4j.evaluation.classification.Evaluation;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/** A user's own network and data, tuned privately from Java through Arbiter's spaces, the tuning in the ledger. */
class PrivateTuningTest {
    private static final DpSgdConfig CANDIDATES = DpSgdConfig.builder().clipNorm(1).targetEpsilon(1).delta(1e-4).batchSize(40)
            .epochs(2).build();

    /** Two Gaussian classes in 5 dimensions. */
    private static DataSet classes(long seed, int n) {
        Nd4j.getRandom().setSeed(seed);
        INDArray x = Nd4j.randn(DataType.FLOAT, n, 5);
        INDArray y = Nd4j.zeros(DataType.FLOAT, n, 2);
        for (int i = 0; i < n; i++) {
            y.putScalar(i, i % 2, 1);
            x.getRow(i).addi(i % 2 == 0 ? -0.8 : 0.8);
        }
        return new DataSet(x, y);
    }

    private static MultiLayerSpace space() {
        return new MultiLayerSpace.Builder().seed(3)
                .updater(new SgdSpace(new ContinuousParameterSpace(0.05, 0.5)))
                .addLayer(new DenseLayerSpace.Builder().nIn(5).nOut(new IntegerParameterSpace(4, 16)).activation(Activation.TANH).build())
                .addLayer(new OutputLayerSpace.Builder().nOut(2).activation(Activation.SOFTMAX).lossFunction(LossFunction.MCXENT).build())
                .build();
    }

    @Test
    void aUsersOwnNetworkIsTunedWithinTheTotalAndTheTuningIsInTheLedger() {
        DataSet validation = classes(2, 200);
        PrivateTuning<DL4JConfiguration, MultiLayerNetwork> tuning = PrivateTuning.of(space())
                .privacy(CANDIDATES).totalEpsilon(3).candidates(CandidateCount.geometric(3)).pool(6)
                .data(new ListDataSetIterator<>(classes(1, 400).asList(), 50)).validation(validation.getFeatures(), validation.getLabels())
                .noise(NoiseKind.SEEDED).seed(5)
                .build();
        assertEquals(6, tuning.pool().size());
        double candidateEpsilon = tuning.candidateConfig().targetEpsilon();
        assertTrue(candidateEpsilon < 3 && tuning.cost().epsilon() <= 3, candidateEpsilon + " " + tuning.cost());

        PrivateTuningResult<DL4JConfiguration, MultiLayerNetwork> tuned = tuning.run();
        assertTrue(tuned.epsilon() <= 3 + 1e-9, "the released model spends at most the total: " + tuned.epsilon());
        assertEquals(1, tuned.ledger().ledger().entries().size());
        assertTrue(tuned.ledger().ledger().entries().get(0).event() instanceof RepeatAndSelectEvent);
        assertTrue(tuned.candidates().stream().allMatch(c -> c.epsilon() <= candidateEpsilon + 1e-9), tuned.candidates().toString());
        MultiLayerNetwork best = tuned.model().orElseThrow();
        Evaluation e = best.evaluate(new ListDataSetIterator<>(validation.asList(), 100));
        assertTrue(e.accuracy() > 0.7, "the released model learned: " + e.accuracy());
        String statement = tuned.privacyStatement();
        assertTrue(statement.startsWith("WARNING: SEEDED NOISE") && statement.contains("tuning included: epsilon = ")
                && statement.contains("Theorem 2") && statement.contains("PrivateTuningResult.candidates()")
                && !statement.contains("--"), statement);
    }

    @Test
    void aComputationGraphSpaceIsTunedToo() {
        ComputationGraphSpace space = new ComputationGraphSpace.Builder().seed(3)
                .updater(new SgdSpace(new ContinuousParameterSpace(0.05, 0.5))).addInputs("in")
                .setInputTypes(InputType.feedForward(5))
                .addLayer("hidden", new DenseLayerSpace.Builder().nOut(new IntegerParameterSpace(4, 16)).activation(Activation.TANH).build(), "in")
                .addLayer("out", new OutputLayerSpace.Builder().nOut(2).activation(Activation.SOFTMAX).lossFunction(LossFunction.MCXENT).build(), "hidden")
                .setOutputs("out").build();
        DataSet train = classes(1, 400);
        DataSet validation = classes(2, 200);
        PrivateTuningResult<?, ComputationGraph> tuned = PrivateTuning.of(space).privacy(CANDIDATES).totalEpsilon(3)
                .candidates(CandidateCount.geometric(2)).pool(3).data(train.getFeatures(), train.getLabels())
                .validation(validation.getFeatures(), validation.getLabels()).noise(NoiseKind.SEEDED).seed(5).build().run();
        assertTrue(tuned.epsilon() <= 3 + 1e-9);
        assertTrue(!tuned.candidates().isEmpty(), "this seed draws candidates");
        ComputationGraph best = tuned.model().orElseThrow();
        Evaluation e = best.evaluate(new ListDataSetIterator<>(validation.asList(), 100));
        assertTrue(e.accuracy() > 0.7, "the released graph learned: " + e.accuracy());
    }

    @Test
    void membersThatDoNotFitTheDataAndUnreachableTotalsAreRefusedBeforeTraining() {
        DataSet wide = new DataSet(Nd4j.rand(DataType.FLOAT, 100, 7), classes(1, 100).getLabels());
        String m = assertThrows(IllegalArgumentException.class, () -> PrivateTuning.of(space()).privacy(CANDIDATES)
                .data(wide.getFeatures(), wide.getLabels()).validation(wide.getFeatures(), wide.getLabels()).build()).getMessage();
        assertTrue(m.contains("pool configuration 0 does not make a private trainer") && m.contains("the features have 7 values"
                + " per example but layer 0 (DenseLayer) takes 5") && m.contains("narrow the search space"), m);
        DataSet d = classes(1, 100);
        DpSgdConfig fixedNoise = DpSgdConfig.builder().clipNorm(1).noiseMultiplier(0.5).delta(1e-4).batchSize(40).epochs(2).build();
        m = assertThrows(IllegalArgumentException.class, () -> PrivateTuning.of(space()).privacy(fixedNoise).totalEpsilon(1)
                .data(d.getFeatures(), d.getLabels()).validation(d.getFeatures(), d.getLabels()).build()).getMessage();
        assertTrue(m.contains("fixed noise multiplier") && m.contains("targetEpsilon(...)"), m);
    }
}
