package org.dpdl4j.attacks.inversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.LabelRows;
import org.dpdl4j.attacks.TestNetworks;
import org.dpdl4j.attacks.network.NetworkGradients;
import org.dpdl4j.attacks.network.TargetNetwork;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/** iDLG label recovery from bias signs, from weight signs, for a sigmoid output, and its refusals. */
class LabelRecoveryTest {

    private static int recovered(MultiLayerNetwork net, INDArray x, int label, long outputs) {
        INDArray g = NetworkGradients.sumOverBatch(net, x, LabelRows.of(new int[] {label}, outputs, DataType.DOUBLE));
        TargetNetwork t = TargetNetwork.of(net);
        return LabelRecovery.recover(t, t.split(g.muli(3.7)));
    }

    private static MultiLayerNetwork noBiasOutput(Activation hidden) {
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(3)
                .dataType(DataType.DOUBLE).list()
                .layer(new DenseLayer.Builder().nIn(6).nOut(5).activation(hidden).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nIn(5).nOut(4).hasBias(false)
                        .activation(Activation.SOFTMAX).build())
                .build());
        net.init();
        return net;
    }

    @Test
    void everyClassIsRecoveredFromBiasOrWeightSigns() {
        // A fixed input: with five ReLU features and no biases, an input that switches every unit off leaves no
        // weight-gradient signal at all (about 3% of random inputs), and then no label can be recovered.
        INDArray x = Nd4j.createFromArray(new double[][]{{0.31, -0.22, 0.45, -0.08, 0.17, -0.39}});
        MultiLayerNetwork withBias = TestNetworks.mlp(6, new int[] {5}, 4, Activation.TANH, 1, DataType.DOUBLE);
        MultiLayerNetwork sigmoidFeatures = noBiasOutput(Activation.SIGMOID);
        MultiLayerNetwork reluFeatures = noBiasOutput(Activation.RELU);
        for (int label = 0; label < 4; label++) {
            assertEquals(label, recovered(withBias, x, label, 4));
            assertEquals(label, recovered(sigmoidFeatures, x, label, 4));
            assertEquals(label, recovered(reluFeatures, x, label, 4));
        }
    }

    @Test
    void sigmoidOutputLabelIsTheSignOfItsBiasGradient() {
        MultiLayerNetwork logistic = TestNetworks.logistic(6, 2, DataType.DOUBLE);
        INDArray x = Nd4j.rand(DataType.DOUBLE, 1, 6);
        assertEquals(1, recovered(logistic, x, 1, 1));
        assertEquals(0, recovered(logistic, x, 0, 1));
    }

    @Test
    void weightSignsNeedNonNegativeFeatures() {
        MultiLayerNetwork tanhFeatures = noBiasOutput(Activation.TANH);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> recovered(tanhFeatures, Nd4j.rand(DataType.DOUBLE, 1, 6), 1, 4));
        assertTrue(e.getMessage().contains("tanh"), e.getMessage());
    }
}
