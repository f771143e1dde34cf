package org.dpdl4j.examples;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.RunCheckpoint;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/** Decor on a ring of 8 nodes, calibrated to (epsilon, delta) = (4, 1e-5) against a curious node. */
public class DecorExample {
    public static void main(String[] args) {
        MultiLayerNetwork model = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(1)
                .dataType(DataType.FLOAT).list()
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nIn(20).nOut(2)
                        .activation(Activation.SOFTMAX).build())
                .build());
        model.init();

        try (DecentralizedTrainer decor = DecentralizedTrainer.builder()
                .algorithm(DecentralizedAlgorithm.DECOR)
                .model(model)                              // every node starts from these parameters
                .graph(Topologies.ring(8))                 // mixing: Metropolis-Hastings weights by default
                .nodeData(localData(8, 512))               // node i trains on its own examples
                .unit(ProtectedUnit.EXAMPLE).clip(1.0).batchSize(32)
                .learningRate(new LearningRate.Constant(0.5)).rounds(300)
                .target(4.0, 1e-5).adversary(Adversary.curious())   // calibrates (sigma_cdp, sigma_cor)
                .build()) {
            decor.run(200);
            RunCheckpoint.save(decor, new File(args.length > 0 ? args[0] : "decor.ckpt").toPath());   // ledger included
            decor.runToEnd();
            System.out.printf("epsilon spent: %.4f%n", decor.epsilon());   // at most the target
            System.out.println(decor.privacyStatement());
            INDArray average = decor.averageModel();   // decor.model() is the average as a DL4J network
            System.out.println("average model: " + average.length() + " parameters");
        }
    }

    /** Each node's examples: two Gaussian classes in 20 dimensions. */
    static List<NodeData> localData(int nodes, int perNode) {
        Nd4j.getRandom().setSeed(2);
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            INDArray x = Nd4j.randn(DataType.FLOAT, perNode, 20);
            INDArray y = Nd4j.zeros(DataType.FLOAT, perNode, 2);
            for (int j = 0; j < perNode; j++) {
                y.putScalar(j, j % 2, 1);
                x.getRow(j).addi(j % 2 == 1 ? 0.3 : -0.3);
            }
            out.add(new NodeData(x, y));
        }
        return out;
    }
}
