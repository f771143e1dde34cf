package org.dpdl4j.examples;

import java.io.File;
import org.deeplearning4j.datasets.iterator.utilty.ListDataSetIterator;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.optimize.listeners.ScoreIterationListener;
import org.deeplearning4j.util.ModelSerializer;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.optim.PrivateTrainer;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.dataset.api.iterator.DataSetIterator;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/** Differentially private training of a DL4J network fed by a DataSetIterator; prints what the run spent. */
public class PrivateMlpExample {
    public static void main(String[] args) throws Exception {
        // Any DL4J network of the layers per-example clipping supports (dense, convolution, pooling, embedding, ...;
        // see "Convolutional networks and computation graphs" below). ExampleGradients.of(net) lists what it refuses.
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder()
                .seed(7).dataType(DataType.FLOAT).updater(new Sgd(0.5)).list()
                .layer(new DenseLayer.Builder().nIn(20).nOut(32).activation(Activation.RELU).build())
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nIn(32).nOut(2)
                        .activation(Activation.SOFTMAX).build())
                .build());
        net.init();
        net.setListeners(new ScoreIterationListener(100));   // DL4J's listeners see every private step and epoch

        // The training data from any DataSetIterator: it is read once, so that every step draws an exact
        // Poisson sample of the whole data set, as the accountant assumes.
        DataSetIterator train = new ListDataSetIterator<>(twoClasses(4096, 20).asList(), 256);

        // Per-example clip norm 1, target (epsilon, delta) = (2, 1e-5) over 5 epochs of expected batch 256:
        // the noise is calibrated to the target, and no step is taken that would exceed it.
        DpSgdConfig config = DpSgdConfig.builder()
                .clipNorm(1.0).targetEpsilon(2.0).delta(1e-5).batchSize(256).epochs(5)
                .build();
        // build() checks the data against the network (widths, labels against the outputs, delta against N).
        try (PrivateTrainer trainer = PrivateTrainer.builder(net, config).data(train).build()) {
            trainer.fit();   // the 5 planned epochs (fit(n): n more epochs; fitEpoch(): one; step(): one step)
            System.out.printf("epsilon spent: %.3f after %d steps%n", trainer.epsilon(), trainer.steps());
            System.out.println(trainer.privacyStatement());   // the mechanism and the run's ledger
        }   // while it was open, net.fit(...) was refused: it would have trained without privacy
        ModelSerializer.writeModel(net, new File(args.length > 0 ? args[0] : "private-mlp.zip"), true);
    }

    /** n examples of two Gaussian classes in d dimensions, one-hot labels. */
    static DataSet twoClasses(int n, int d) {
        Nd4j.getRandom().setSeed(1);
        INDArray labels = Nd4j.zeros(DataType.FLOAT, n, 2);
        INDArray features = Nd4j.randn(DataType.FLOAT, n, d);
        for (int i = 0; i < n; i++) {
            int y = i % 2;
            labels.putScalar(i, y, 1);
            features.getRow(i).addi(y == 1 ? 0.3 : -0.3);
        }
        return new DataSet(features, labels);
    }
}
