package org.dpdl4j.optim;

import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInit;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.IUpdater;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/** Small dense networks and random batches for the per-example gradient tests. */
public final class TestNetworks {
    private TestNetworks() {
    }

    public static MultiLayerNetwork mlp(DataType type, long seed, Activation hidden, Activation out, LossFunction loss,
                                 IUpdater updater, int... sizes) {
        NeuralNetConfiguration.ListBuilder b = new NeuralNetConfiguration.Builder()
                .seed(seed).dataType(type).updater(updater).weightInit(WeightInit.XAVIER).list();
        for (int i = 0; i < sizes.length - 2; i++) {
            b.layer(new DenseLayer.Builder().nIn(sizes[i]).nOut(sizes[i + 1]).activation(hidden).build());
        }
        b.layer(new OutputLayer.Builder(loss).nIn(sizes[sizes.length - 2]).nOut(sizes[sizes.length - 1])
                .activation(out).build());
        MultiLayerConfiguration conf = b.build();
        MultiLayerNetwork net = new MultiLayerNetwork(conf);
        net.init();
        return net;
    }

    public static MultiLayerNetwork mlp(DataType type, long seed, Activation hidden, int... sizes) {
        return mlp(type, seed, hidden, Activation.SOFTMAX, LossFunction.MCXENT, new Sgd(0.1), sizes);
    }

    public static INDArray features(DataType type, long seed, long b, long nIn) {
        return Nd4j.getRandomFactory().getNewRandomInstance(seed).nextGaussian(new long[]{b, nIn}).castTo(type);
    }

    /** One-hot labels of {@code k} classes (k = 1: random 0/1 column). */
    public static INDArray oneHot(DataType type, long seed, long b, int k) {
        java.util.Random r = new java.util.Random(seed);
        if (k == 1) {
            INDArray y = Nd4j.create(type, b, 1);
            for (int i = 0; i < b; i++) {
                y.putScalar(i, 0, r.nextBoolean() ? 1 : 0);
            }
            return y;
        }
        INDArray y = Nd4j.zeros(type, b, k);
        for (int i = 0; i < b; i++) {
            y.putScalar(i, r.nextInt(k), 1.0);
        }
        return y;
    }
}
