package org.dpdl4j.examples;

import org.deeplearning4j.core.storage.StatsStorage;
import org.deeplearning4j.datasets.iterator.utilty.ListDataSetIterator;
import org.deeplearning4j.earlystopping.EarlyStoppingConfiguration;
import org.deeplearning4j.earlystopping.EarlyStoppingResult;
import org.deeplearning4j.earlystopping.saver.InMemoryModelSaver;
import org.deeplearning4j.earlystopping.scorecalc.DataSetLossCalculator;
import org.deeplearning4j.earlystopping.termination.MaxEpochsTerminationCondition;
import org.deeplearning4j.earlystopping.termination.ScoreImprovementEpochTerminationCondition;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.ui.model.stats.StatsListener;
import org.deeplearning4j.ui.model.storage.InMemoryStatsStorage;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.optim.PrivateEarlyStoppingTrainer;
import org.dpdl4j.optim.PrivateTrainer;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.dataset.SplitTestAndTrain;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/** DL4J's training UI and early stopping on a private run. */
public class PrivateEarlyStoppingExample {
    public static void main(String[] args) {
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder()
                .seed(7).dataType(DataType.FLOAT).updater(new Sgd(0.5)).list()
                .layer(new DenseLayer.Builder().nIn(20).nOut(32).activation(Activation.RELU).build())
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nIn(32).nOut(2)
                        .activation(Activation.SOFTMAX).build())
                .build());
        net.init();
        // DL4J's training UI records every private step (UIServer.getInstance().attach(storage) shows it).
        StatsStorage storage = new InMemoryStatsStorage();
        net.setListeners(new StatsListener(storage, 10));

        // Held-out examples score the epochs; the trainer samples from the others.
        SplitTestAndTrain split = PrivateMlpExample.twoClasses(5120, 20).splitTestAndTrain(4096);
        DataSet train = split.getTrain();
        EarlyStoppingConfiguration<MultiLayerNetwork> earlyStopping = new EarlyStoppingConfiguration.Builder<MultiLayerNetwork>()
                .scoreCalculator(new DataSetLossCalculator(new ListDataSetIterator<>(split.getTest().asList(), 256), true))
                .epochTerminationConditions(new MaxEpochsTerminationCondition(100),
                        new ScoreImprovementEpochTerminationCondition(3))
                .modelSaver(new InMemoryModelSaver<>())
                .build();

        // The budget: epsilon = 2 after 8 epochs. The run stops at the first of: the budget, 100 epochs, 3 epochs
        // without improvement of the held-out loss.
        DpSgdConfig config = DpSgdConfig.builder()
                .clipNorm(1.0).targetEpsilon(2.0).delta(1e-5).batchSize(256).epochs(8)
                .build();
        try (PrivateTrainer trainer = PrivateTrainer.builder(net, config).data(train.getFeatures(), train.getLabels()).build()) {
            PrivateEarlyStoppingTrainer<MultiLayerNetwork> early = new PrivateEarlyStoppingTrainer<>(earlyStopping, trainer);
            EarlyStoppingResult<MultiLayerNetwork> result = early.fit();
            MultiLayerNetwork best = result.getBestModel();   // an iterate: covered by the run's ledger
            System.out.printf("%s after %d epochs (%s); best epoch %d, held-out loss %.4f%n", result.getTerminationReason(),
                    result.getTotalEpochs(), result.getTerminationDetails(), result.getBestModelEpoch(),
                    result.getBestModelScore());
            System.out.printf("UI records: %d; best model: %d parameters%n",
                    storage.getNumUpdateRecordsFor(storage.listSessionIDs().get(0)), best.numParams());
            System.out.println(early.privacyStatement());
        }
    }
}
