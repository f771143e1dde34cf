package org.dpdl4j.optim.layers;

import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.graph.MergeVertex;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInit;
import org.dpdl4j.optim.DpOptimizer;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.optim.PrivateTrainer;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.dpdl4j.runtime.RunState;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Nesterovs;
import org.nd4j.linalg.lossfunctions.LossFunctions;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Private training of convolutional networks and computation graphs through the public API. */
class ConvolutionalTrainingTest {

    @Test
    void withoutClippingAndNoiseAStepOnALeNetIsDl4jsFit() {
        MultiLayerNetwork plain = OracleNetworks.leNet(ConvolutionMode.Same, 2, 0, 1);
        MultiLayerNetwork priv = OracleNetworks.leNet(ConvolutionMode.Same, 2, 0, 1);
        INDArray x = OracleNetworks.features(4, 16, 288);
        INDArray y = OracleNetworks.oneHot(16, 3);
        DpOptimizer dp = new DpOptimizer(priv, Double.POSITIVE_INFINITY, 0.0, 16, SeededNoiseSource.forKey(new NoiseKey(1, "t", 0, 0)));
        for (int i = 0; i < 3; i++) {
            plain.fit(new DataSet(x, y));
            dp.step(x, y);
        }
        assertEquals(0.0, plain.params().sub(priv.params()).norm2Number().doubleValue() / plain.params().norm2Number().doubleValue(), 1e-10);
        assertEquals(plain.getIterationCount(), priv.getIterationCount());
    }

    @Test
    void aSmallGraphTrainsPrivatelyWithinItsBudgetAndResumesFromItsState() {
        ImageTask task = ImageTask.generate(400, 7);
        ComputationGraph graph = graph(5);
        PrivateTrainer trainer = PrivateTrainer.builder(graph, DpSgdConfig.forTarget(1.0, 4.0, 1e-5, 50, 12))
                .data(task.x, task.y).noise(SeededNoiseSource.forKey(new NoiseKey(2, "t", 0, 0)))
                .sampling(new SplittableRandom(5)).build();
        double before = accuracy(graph, task);
        for (int e = 0; e < 12; e++) {
            trainer.fitEpoch();
        }
        double after = accuracy(graph, task);
        assertTrue(after > 0.9 && after > before + 0.2, "accuracy " + before + " -> " + after);
        assertTrue(trainer.epsilon() <= 4.0 + 1e-9, "epsilon " + trainer.epsilon());
        assertEquals(12, graph.getEpochCount());
        assertThrows(IllegalStateException.class, trainer::network);

        RunState saved = trainer.state();
        INDArray params = graph.params().dup();
        ComputationGraph fresh = graph(6);
        PrivateTrainer resumed = PrivateTrainer.builder(fresh, DpSgdConfig.forTarget(1.0, 4.0, 1e-5, 50, 12))
                .data(task.x, task.y).noise(SeededNoiseSource.forKey(new NoiseKey(2, "t", 0, 0))).sampling(new SplittableRandom(5)).build();
        org.dpdl4j.runtime.NetworkState.restore(fresh, saved);
        assertArrayEquals(params.toFloatVector(), fresh.params().toFloatVector());
        assertEquals(graph.getIterationCount(), fresh.getIterationCount());
        resumed.close();
        trainer.close();
    }

    @Test
    void theLeNetTrainsPrivately() {
        ImageTask task = ImageTask.generate(400, 3);
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(2).updater(new Nesterovs(0.5, 0.9))
                .weightInit(WeightInit.XAVIER).list()
                .layer(new ConvolutionLayer.Builder(3, 3).nOut(4).activation(Activation.TANH).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(2, 2).build())
                .layer(new DenseLayer.Builder().nOut(8).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nOut(2).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(8, 8, 1)).build());
        net.init();
        try (PrivateTrainer trainer = PrivateTrainer.create(net, DpSgdConfig.forTarget(0.5, 4.0, 1e-5, 50, 10), task.x, task.y,
                SeededNoiseSource.forKey(new NoiseKey(3, "t", 0, 0)), new SplittableRandom(9))) {
            for (int e = 0; e < 10; e++) {
                trainer.fitEpoch();
            }
            INDArray predicted = net.output(task.x).argMax(1);
            double acc = predicted.eq(task.y.argMax(1)).castTo(DataType.DOUBLE).meanNumber().doubleValue();
            assertTrue(acc > 0.9, "accuracy " + acc);
            assertTrue(trainer.epsilon() <= 4.0 + 1e-9);
        }
    }

    private static ComputationGraph graph(long seed) {
        ComputationGraphConfiguration conf = new NeuralNetConfiguration.Builder().seed(seed).updater(new Nesterovs(0.5, 0.9))
                .weightInit(WeightInit.XAVIER).graphBuilder()
                .addInputs("in").setInputTypes(InputType.convolutionalFlat(8, 8, 1))
                .addLayer("conv", new ConvolutionLayer.Builder(3, 3).nOut(4).activation(Activation.TANH).build(), "in")
                .addLayer("pool", new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(2, 2).build(), "conv")
                .addLayer("dense", new DenseLayer.Builder().nOut(6).activation(Activation.TANH).build(), "pool")
                .addLayer("skip", new DenseLayer.Builder().nOut(4).activation(Activation.RELU).build(), "in")
                .addVertex("merge", new MergeVertex(), "dense", "skip")
                .addLayer("out", new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nOut(2).activation(Activation.SOFTMAX).build(), "merge")
                .setOutputs("out").build();
        ComputationGraph g = new ComputationGraph(conf);
        g.init();
        return g;
    }

    private static double accuracy(ComputationGraph graph, ImageTask task) {
        INDArray predicted = graph.outputSingle(task.x).argMax(1);
        return predicted.eq(task.y.argMax(1)).castTo(DataType.DOUBLE).meanNumber().doubleValue();
    }

    /** 8x8 images: class 1 has a bright vertical bar at a random column, class 0 a horizontal one; plus noise. */
    private record ImageTask(INDArray x, INDArray y) {
        static ImageTask generate(int n, long seed) {
            SplittableRandom r = new SplittableRandom(seed);
            float[][] x = new float[n][64];
            float[][] y = new float[n][2];
            for (int i = 0; i < n; i++) {
                int label = i % 2;
                int at = r.nextInt(8);
                for (int p = 0; p < 64; p++) {
                    int row = p / 8;
                    int col = p % 8;
                    boolean bar = label == 1 ? col == at : row == at;
                    x[i][p] = (bar ? 1f : 0f) + (float) (0.2 * (r.nextDouble() - 0.5));
                }
                y[i][label] = 1f;
            }
            return new ImageTask(Nd4j.createFromArray(x), Nd4j.createFromArray(y));
        }
    }
}
