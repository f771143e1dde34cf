package org.dpdl4j.examples;

import org.deeplearning4j.arbiter.DL4JConfiguration;
import org.deeplearning4j.arbiter.MultiLayerSpace;
import org.deeplearning4j.arbiter.conf.updater.SgdSpace;
import org.deeplearning4j.arbiter.layers.DenseLayerSpace;
import org.deeplearning4j.arbiter.layers.OutputLayerSpace;
import org.deeplearning4j.arbiter.optimize.parameter.continuous.ContinuousParameterSpace;
import org.deeplearning4j.arbiter.optimize.parameter.integer.IntegerParameterSpace;
import org.deeplearning4j.datasets.iterator.utilty.ListDataSetIterator;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.experiments.tuning.PrivateTuning;
import org.dpdl4j.experiments.tuning.PrivateTuningResult;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.tuning.CandidateCount;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/** Private tuning of your own network on your own data: the released model's epsilon includes the tuning. */
public class PrivateTuningExample {
    public static void main(String[] args) {
        // Arbiter's space over the network: the hidden width and the learning rate are searched.
        MultiLayerSpace space = new MultiLayerSpace.Builder().seed(7)
                .updater(new SgdSpace(new ContinuousParameterSpace(0.05, 0.5)))
                .addLayer(new DenseLayerSpace.Builder().nIn(20).nOut(new IntegerParameterSpace(8, 64))
                        .activation(Activation.RELU).build())
                .addLayer(new OutputLayerSpace.Builder().nOut(2).activation(Activation.SOFTMAX)
                        .lossFunction(LossFunctions.LossFunction.MCXENT).build())
                .build();
        DataSet train = twoClasses(4096, 20, 1);
        DataSet validation = twoClasses(1024, 20, 2);   // private too: scored with noise

        // Every candidate: DP-SGD with clip 1 over 3 epochs; its target epsilon is calibrated so that the released
        // model spends at most 4, tuning included.
        PrivateTuningResult<DL4JConfiguration, MultiLayerNetwork> tuned = PrivateTuning.of(space)
                .privacy(DpSgdConfig.builder().clipNorm(1.0).targetEpsilon(1.0).delta(1e-5).batchSize(256).epochs(3).build())
                .totalEpsilon(4.0)
                .candidates(CandidateCount.geometric(4))   // K, secret, drawn with mean 4
                .pool(8)
                .data(new ListDataSetIterator<>(train.asList(), 256))
                .validation(new ListDataSetIterator<>(validation.asList(), 256))
                .build()
                .run();

        MultiLayerNetwork best = tuned.model().orElseThrow();
        System.out.printf("released: %d parameters, noisy validation accuracy %.3f, epsilon %.3f (tuning included)%n",
                best.numParams(), tuned.score().orElseThrow(), tuned.epsilon());
        System.out.println(tuned.privacyStatement());
    }

    /** n examples of two Gaussian classes in d dimensions, one-hot labels. */
    static DataSet twoClasses(int n, int d, long seed) {
        Nd4j.getRandom().setSeed(seed);
        INDArray labels = Nd4j.zeros(DataType.FLOAT, n, 2);
        INDArray features = Nd4j.randn(DataType.FLOAT, n, d);
        for (int i = 0; i < n; i++) {
            labels.putScalar(i, i % 2, 1);
            features.getRow(i).addi(i % 2 == 1 ? 0.3 : -0.3);
        }
        return new DataSet(features, labels);
    }
}
