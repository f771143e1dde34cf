package org.dpdl4j.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.deeplearning4j.datasets.iterator.utilty.ListDataSetIterator;
import org.deeplearning4j.earlystopping.EarlyStoppingConfiguration;
import org.deeplearning4j.earlystopping.EarlyStoppingResult;
import org.deeplearning4j.earlystopping.EarlyStoppingResult.TerminationReason;
import org.deeplearning4j.earlystopping.saver.InMemoryModelSaver;
import org.deeplearning4j.earlystopping.scorecalc.DataSetLossCalculator;
import org.deeplearning4j.earlystopping.termination.EpochTerminationCondition;
import org.deeplearning4j.earlystopping.termination.IterationTerminationCondition;
import org.deeplearning4j.earlystopping.termination.MaxEpochsTerminationCondition;
import org.deeplearning4j.earlystopping.termination.MaxScoreIterationTerminationCondition;
import org.deeplearning4j.earlystopping.termination.MaxTimeIterationTerminationCondition;
import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.optimize.api.BaseTrainingListener;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/** DL4J's early-stopping configuration drives a private trainer; the budget ends the run like a termination condition. */
class PrivateEarlyStoppingTrainerTest {
    private static final int N = 400;

    /** Two Gaussian classes in 5 dimensions, training and held-out parts from the same distribution. */
    private static DataSet classes(long seed, int n) {
        INDArray x = TestNetworks.features(DataType.FLOAT, seed, n, 5);
        INDArray y = Nd4j.zeros(DataType.FLOAT, n, 2);
        for (int i = 0; i < n; i++) {
            y.putScalar(i, i % 2, 1);
            x.getRow(i).addi(i % 2 == 0 ? -1 : 1);
        }
        return new DataSet(x, y);
    }

    private static PrivateTrainer trainer(MultiLayerNetwork net, DpSgdConfig config) {
        DataSet train = classes(1, N);
        return PrivateTrainer.builder(net, config).data(train.getFeatures(), train.getLabels())
                .noise(SeededNoiseSource.forKey(new NoiseKey(1, "es", 0, 0))).sampling(new SplittableRandom(2)).build();
    }

    private static MultiLayerNetwork net() {
        return TestNetworks.mlp(DataType.FLOAT, 7, Activation.TANH, Activation.SOFTMAX, LossFunction.MCXENT, new Sgd(0.2), 5, 8, 2);
    }

    private static EarlyStoppingConfiguration<MultiLayerNetwork> config(EpochTerminationCondition... conditions) {
        return new EarlyStoppingConfiguration.Builder<MultiLayerNetwork>()
                .epochTerminationConditions(conditions)
                .scoreCalculator(new DataSetLossCalculator(new ListDataSetIterator<>(classes(9, 200).asList(), 50), true))
                .modelSaver(new InMemoryModelSaver<>())
                .build();
    }

    /** The parameters after every epoch, to compare the kept model with the iterate it claims to be. */
    private static List<INDArray> recordEpochs(MultiLayerNetwork net) {
        List<INDArray> iterates = new ArrayList<>();
        net.addListeners(new BaseTrainingListener() {
            @Override
            public void onEpochEnd(Model model) {
                iterates.add(model.params().dup());
            }
        });
        return iterates;
    }

    @Test
    void theBudgetStopsTheRunAndTheKeptModelIsOneOfItsIterates() {
        MultiLayerNetwork net = net();
        List<INDArray> iterates = recordEpochs(net);
        DpSgdConfig dp = DpSgdConfig.builder().clipNorm(1).targetEpsilon(1.0).delta(1e-4).batchSize(40).epochs(3).build();
        try (PrivateTrainer trainer = trainer(net, dp)) {
            PrivateEarlyStoppingTrainer<MultiLayerNetwork> es = new PrivateEarlyStoppingTrainer<>(
                    config(new MaxEpochsTerminationCondition(100)), trainer);
            EarlyStoppingResult<MultiLayerNetwork> result = es.fit();
            assertEquals(TerminationReason.EpochTerminationCondition, result.getTerminationReason());
            assertTrue(result.getTerminationDetails().startsWith("privacy budget reached: epsilon = "), result.getTerminationDetails());
            assertEquals(3, result.getTotalEpochs(), "the noise was calibrated for 3 epochs, and the budget is the target");
            assertEquals(3, result.getScoreVsEpoch().size());
            assertEquals(trainer.plannedSteps(), trainer.steps());
            assertTrue(trainer.epsilon() <= 1.0 + 1e-9);
            assertArrayEquals(iterates.get(result.getBestModelEpoch()).toDoubleVector(),
                    result.getBestModel().params().toDoubleVector(), 0.0, "the kept model is the best epoch's iterate");
            assertTrue(es.privacyStatement().contains("covers it for the training examples")
                    && es.privacyStatement().contains("held-out examples are not protected"), es.privacyStatement());
        }
    }

    @Test
    void aBudgetReachedMidEpochEndsTheEpochAndScoresItsLastIterate() {
        MultiLayerNetwork net = net();
        List<INDArray> iterates = recordEpochs(net);
        DpSgdConfig dp = DpSgdConfig.builder().clipNorm(1).targetEpsilon(2.0).delta(1e-4).batchSize(40).epochs(3)
                .epsilonBudget(1.2).build();
        try (PrivateTrainer trainer = trainer(net, dp)) {
            EarlyStoppingResult<MultiLayerNetwork> result = new PrivateEarlyStoppingTrainer<>(
                    config(new MaxEpochsTerminationCondition(100)), trainer).fit();
            assertEquals(TerminationReason.IterationTerminationCondition, result.getTerminationReason());
            assertTrue(result.getTerminationDetails().contains("privacy budget reached"), result.getTerminationDetails());
            assertTrue(trainer.steps() % trainer.stepsPerEpoch() != 0, "stopped inside an epoch: " + trainer.steps());
            assertTrue(trainer.epsilon() <= 1.2 + 1e-9 && !trainer.budgetAllowsAnotherStep());
            assertEquals(result.getTotalEpochs(), result.getScoreVsEpoch().size(), "the partial epoch is scored too");
            assertEquals(result.getTotalEpochs(), iterates.size(), "its listeners saw it end");
        }
    }

    @Test
    void dl4jsEpochConditionsStopItBeforeTheBudget() {
        DpSgdConfig dp = DpSgdConfig.builder().clipNorm(1).targetEpsilon(1.0).delta(1e-4).batchSize(40).epochs(5).build();
        try (PrivateTrainer trainer = trainer(net(), dp)) {
            PrivateEarlyStoppingTrainer<MultiLayerNetwork> es = new PrivateEarlyStoppingTrainer<>(
                    new EarlyStoppingConfiguration.Builder<MultiLayerNetwork>()
                            .epochTerminationConditions(new MaxEpochsTerminationCondition(2))
                            .iterationTerminationConditions(new MaxTimeIterationTerminationCondition(1, TimeUnit.HOURS))
                            .scoreCalculator(new DataSetLossCalculator(new ListDataSetIterator<>(classes(9, 200).asList(), 50), true))
                            .modelSaver(new InMemoryModelSaver<>()).build(), trainer);
            EarlyStoppingResult<MultiLayerNetwork> result = es.fit();
            assertEquals(TerminationReason.EpochTerminationCondition, result.getTerminationReason());
            assertTrue(result.getTerminationDetails().contains("MaxEpochsTerminationCondition"), result.getTerminationDetails());
            assertEquals(2, result.getTotalEpochs());
            assertTrue(trainer.epsilon() < 1.0);
        }
    }

    @Test
    void conditionsOnThePrivateBatchLossAreRefused() {
        try (PrivateTrainer trainer = trainer(net(), DpSgdConfig.builder().clipNorm(1).targetEpsilon(1.0).delta(1e-4)
                .batchSize(40).epochs(1).build())) {
            EarlyStoppingConfiguration<MultiLayerNetwork> c = config(new MaxEpochsTerminationCondition(3));
            c.setIterationTerminationConditions(List.<IterationTerminationCondition>of(new MaxScoreIterationTerminationCondition(10)));
            String m = assertThrows(IllegalArgumentException.class, () -> new PrivateEarlyStoppingTrainer<>(c, trainer)).getMessage();
            assertTrue(m.contains("MaxScoreIterationTerminationCondition decides from the training batch's loss")
                    && m.contains("ScoreImprovementEpochTerminationCondition"), m);
        }
    }
}
