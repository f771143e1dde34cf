package org.dpdl4j.examples;

import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.graph.MergeVertex;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.optim.PerExampleGradientOracle;
import org.dpdl4j.optim.PrivateTrainer;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.nd4j.linalg.learning.config.Nesterovs;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/** Differentially private training of a CNN and of a ComputationGraph: the same trainer as for any DL4J network. */
public class PrivateCnnExample {
    public static void main(String[] args) {
        // Random 28x28 images with 10 labels stand in for MNIST here (`dpdl4j train --model cnn` trains on MNIST).
        Nd4j.getRandom().setSeed(1);
        INDArray x = Nd4j.rand(DataType.FLOAT, 1024, 784);
        INDArray y = Nd4j.zeros(DataType.FLOAT, 1024, 10);
        for (int i = 0; i < 1024; i++) {
            y.putScalar(i, i % 10, 1);
        }
        DpSgdConfig config = DpSgdConfig.builder().clipNorm(0.1).targetEpsilon(3.0).delta(1e-5).batchSize(256).epochs(2).build();

        // The end-to-end tanh CNN of private image classification, from the optional dpdl4j-models module; any CNN of
        // supported layers works the same way.
        MultiLayerNetwork cnn = ModelKind.CNN.network(784, 10, ModelOptions.defaults().withUpdater(new Nesterovs(1.0, 0.9)));
        try (PrivateTrainer trainer = PrivateTrainer.builder(cnn, config).data(x, y).build()) {
            trainer.fit();
            System.out.printf("CNN: epsilon spent %.3f%n", trainer.epsilon());
        }

        // A graph: a convolutional branch and a dense one, merged.
        ComputationGraph graph = new ComputationGraph(new NeuralNetConfiguration.Builder().seed(1)
                .updater(new Nesterovs(1.0, 0.9)).graphBuilder()
                .addInputs("pixels").setInputTypes(InputType.convolutionalFlat(28, 28, 1))
                .addLayer("conv", new ConvolutionLayer.Builder(5, 5).nOut(8).stride(2, 2).activation(Activation.TANH).build(), "pixels")
                .addLayer("pool", new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(2, 2).build(), "conv")
                .addLayer("deep", new DenseLayer.Builder().nOut(32).activation(Activation.TANH).build(), "pool")
                .addLayer("wide", new DenseLayer.Builder().nOut(32).activation(Activation.TANH).build(), "pixels")
                .addVertex("both", new MergeVertex(), "deep", "wide")
                .addLayer("out", new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nOut(10)
                        .activation(Activation.SOFTMAX).build(), "both")
                .setOutputs("out").build());
        graph.init();
        try (PrivateTrainer trainer = PrivateTrainer.builder(graph, config).data(x, y).build()) {
            trainer.fit();
            System.out.println(trainer.privacyStatement());
        }

        // Per-example clipping of your own network, checked against DL4J run on one example at a time.
        INDArray some = x.get(NDArrayIndex.interval(0, 8), NDArrayIndex.all());
        INDArray their = y.get(NDArrayIndex.interval(0, 8), NDArrayIndex.all());
        System.out.println(PerExampleGradientOracle.compare(graph, some, their, 0.1));
    }
}
