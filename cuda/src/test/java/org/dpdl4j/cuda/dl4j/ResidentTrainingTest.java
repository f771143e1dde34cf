package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.optimize.api.BaseTrainingListener;
import org.deeplearning4j.optimize.listeners.ScoreIterationListener;
import org.deeplearning4j.util.ModelSerializer;
import org.dpdl4j.cuda.engine.JavaBackend;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.DpModelValidator;
import org.dpdl4j.optim.DpOptimizer;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.optim.ParameterAverage;
import org.dpdl4j.optim.PrivateTrainer;
import org.dpdl4j.optim.TestNetworks;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.dpdl4j.runtime.RunState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.learning.config.Adam;
import org.nd4j.linalg.learning.config.IUpdater;
import org.nd4j.linalg.learning.config.Nesterovs;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;
import org.nd4j.linalg.schedule.ScheduleType;
import org.nd4j.linalg.schedule.StepSchedule;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The training kept on the device across steps ({@link org.dpdl4j.optim.ResidentTraining}), run on the reference
 * backend: a multi-step run equals the host path (dpdl4j's host engine, DL4J's updater) with the same seeded noise and
 * sampling to float rounding, and every reader of the network - listeners, observers, the parameter average, the
 * run's state (checkpoints), the model a run saves, the caller's own network after an epoch or a step - sees the
 * current parameters and updater state; what callers write into the network they were handed counts.
 */
class ResidentTrainingTest {
    private static final int[] SIZES = {20, 12, 3};
    private static final int N = 160;
    /** 2 epochs of ~5 steps: the clipped sums of the two engines differ by ~1e-7 relative per step. */
    private static final double TOLERANCE = 1e-5;
    private static final INDArray X = TestNetworks.features(DataType.FLOAT, 41, N, SIZES[0]);
    private static final INDArray Y = TestNetworks.oneHot(DataType.FLOAT, 42, N, SIZES[2]);

    static Stream<Arguments> updaters() {
        return Stream.of(Arguments.of("Sgd", new Sgd(0.2)),
                Arguments.of("Nesterovs", new Nesterovs(0.05, 0.9)),
                Arguments.of("Nesterovs with a learning-rate schedule", new Nesterovs(
                        new StepSchedule(ScheduleType.ITERATION, 0.1, 0.5, 4), 0.8)));
    }

    static MultiLayerNetwork network(IUpdater updater) {
        return TestNetworks.mlp(DataType.FLOAT, 3, Activation.TANH, Activation.SOFTMAX, LossFunction.MCXENT, updater, SIZES);
    }

    /** A trainer with seeded noise and sampling, on the host or on the device path of the reference backend. */
    private static PrivateTrainer trainer(MultiLayerNetwork net, boolean onDevice) {
        return trainer(net, onDevice ? new CudaExampleGradients(DpModelValidator.validate(net), new JavaBackend(), true) : null);
    }

    /** A trainer with seeded noise and sampling, on the host (engine null) or on the given engine. */
    static PrivateTrainer trainer(MultiLayerNetwork net, org.dpdl4j.optim.ExampleGradients engine) {
        PrivateTrainer.Builder b = PrivateTrainer.builder(net, DpSgdConfig.withNoise(1.0, 1.1, 1e-5, 32, 2))
                .data(X, Y).noise(SeededNoiseSource.forKey(new NoiseKey(9, "resident-test", 0, 0)))
                .sampling(new SplittableRandom(5));
        return engine != null ? b.engine(engine).build() : b.device(ComputeDevice.CPU).build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("updaters")
    void aMultiStepRunEqualsTheHostPath(String name, IUpdater updater) {
        MultiLayerNetwork hostNet = network(updater);
        MultiLayerNetwork deviceNet = network(updater.clone());
        try (PrivateTrainer host = trainer(hostNet, false); PrivateTrainer device = trainer(deviceNet, true)) {
            assertTrue(device.deviceResidence().startsWith("parameters, updater state and gradient stay on the device"),
                    device.deviceResidence());
            for (int e = 0; e < 2; e++) {
                host.fitEpoch();
                device.fitEpoch();
            }
            assertTrue(host.steps() >= 8, "steps taken: " + host.steps());
            assertEquals(host.steps(), device.steps());
            // the caller's own network is current after fitEpoch, updater state included
            assertClose(hostNet.params(), deviceNet.params(), name + ": parameters after two epochs");
            if (hostNet.getUpdater().getStateViewArray() != null) {
                assertClose(hostNet.getUpdater().getStateViewArray(), deviceNet.getUpdater().getStateViewArray(),
                        name + ": updater state after two epochs");
            }
            assertEquals(hostNet.getIterationCount(), deviceNet.getIterationCount());
            assertEquals(host.lastLoss(), device.lastLoss(), 1e-5 * Math.abs(host.lastLoss()), name + ": last loss");
        }
    }

    @Test
    void aConvolutionalRunEqualsTheHostPath() {
        MultiLayerNetwork hostNet = smallCnn();
        MultiLayerNetwork deviceNet = smallCnn();
        INDArray x = org.nd4j.linalg.factory.Nd4j.rand(DataType.FLOAT, 96, 2 * 12 * 12);
        INDArray y = TestNetworks.oneHot(DataType.FLOAT, 43, 96, 3);
        try (PrivateTrainer host = cnnTrainer(hostNet, x, y, false); PrivateTrainer device = cnnTrainer(deviceNet, x, y, true)) {
            assertTrue(device.deviceResidence().startsWith("parameters, updater state and gradient stay on the device"),
                    device.deviceResidence());
            for (int e = 0; e < 2; e++) {
                host.fitEpoch();
                device.fitEpoch();
            }
            assertClose(hostNet.params(), deviceNet.params(), "CNN parameters after two epochs");
            assertClose(hostNet.getUpdater().getStateViewArray(), deviceNet.getUpdater().getStateViewArray(),
                    "CNN momentum after two epochs");
        }
    }

    /** Convolution (tanh), max pooling, a convolution without bias (relu), dense, softmax: on flat 12x12x2 images. */
    private static MultiLayerNetwork smallCnn() {
        MultiLayerNetwork net = new MultiLayerNetwork(new org.deeplearning4j.nn.conf.NeuralNetConfiguration.Builder().seed(5)
                .dataType(DataType.FLOAT).updater(new Nesterovs(0.05, 0.9))
                .weightInit(org.deeplearning4j.nn.weights.WeightInit.XAVIER).list()
                .layer(new org.deeplearning4j.nn.conf.layers.ConvolutionLayer.Builder(3, 3).nOut(4).padding(1, 1)
                        .activation(Activation.TANH).build())
                .layer(new org.deeplearning4j.nn.conf.layers.SubsamplingLayer.Builder(
                        org.deeplearning4j.nn.conf.layers.SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(1, 1).build())
                .layer(new org.deeplearning4j.nn.conf.layers.ConvolutionLayer.Builder(2, 2).nOut(3).stride(2, 2).hasBias(false)
                        .activation(Activation.RELU).build())
                .layer(new org.deeplearning4j.nn.conf.layers.DenseLayer.Builder().nOut(6).activation(Activation.TANH).build())
                .layer(new org.deeplearning4j.nn.conf.layers.OutputLayer.Builder(LossFunction.MCXENT).nOut(3)
                        .activation(Activation.SOFTMAX).build())
                .setInputType(org.deeplearning4j.nn.conf.inputs.InputType.convolutionalFlat(12, 12, 2)).build());
        net.init();
        return net;
    }

    private static PrivateTrainer cnnTrainer(MultiLayerNetwork net, INDArray x, INDArray y, boolean onDevice) {
        PrivateTrainer.Builder b = PrivateTrainer.builder(net, DpSgdConfig.withNoise(1.0, 1.1, 1e-5, 16, 2))
                .data(x, y).noise(SeededNoiseSource.forKey(new NoiseKey(9, "resident-cnn-test", 0, 0)))
                .sampling(new SplittableRandom(6));
        return onDevice ? b.engine(CudaExampleGradients.convolutional(net, new JavaBackend(), true)).build()
                : b.device(ComputeDevice.CPU).build();
    }

    @Test
    void everyReaderSeesTheCurrentParameters() throws Exception {
        MultiLayerNetwork hostNet = network(new Nesterovs(0.05, 0.9));
        MultiLayerNetwork deviceNet = network(new Nesterovs(0.05, 0.9));
        Readers hostReaders = new Readers(hostNet);
        Readers deviceReaders = new Readers(deviceNet);
        try (PrivateTrainer host = trainer(hostNet, false); PrivateTrainer device = trainer(deviceNet, true)) {
            host.addObserver(tap -> hostReaders.observed.add(tap.parameters().dup()));
            device.addObserver(tap -> deviceReaders.observed.add(tap.parameters().dup()));
            host.addObserver(tap -> hostReaders.released.add(tap.releasedGradient().dup()));
            device.addObserver(tap -> deviceReaders.released.add(tap.releasedGradient().dup()));
            host.fitEpoch();
            device.fitEpoch();
            // steps taken one by one (outside an epoch): the caller's network is current after each
            for (int s = 0; s < 2; s++) {
                host.step();
                device.step();
                assertClose(hostNet.params(), deviceNet.params(), "the caller's network after a single step");
            }
            host.run(3);
            device.run(3);
            assertClose(hostNet.params(), deviceNet.params(), "the caller's network after run(3)");
            hostReaders.assertSameAs(deviceReaders);

            RunState hostState = host.state();
            RunState deviceState = device.state();
            assertClose(hostState.array("params"), deviceState.array("params"), "the checkpoint's parameters");
            assertClose(hostState.array("updater"), deviceState.array("updater"), "the checkpoint's updater state");
            assertEquals(hostState.longValue("iteration"), deviceState.longValue("iteration"));
            assertClose(host.parameters(), device.parameters(), "the run's parameters()");

            MultiLayerNetwork saved = saveAndRestore(device.model());
            assertClose(hostNet.params(), saved.params(), "the parameters of the saved model");
            assertClose(hostNet.getUpdater().getStateViewArray(), saved.getUpdater().getStateViewArray(),
                    "the updater state of the saved model");
        }
    }

    @Test
    void whatTheCallerWritesIntoTheNetworkItWasHandedCounts() {
        MultiLayerNetwork hostNet = network(new Nesterovs(0.05, 0.9));
        MultiLayerNetwork deviceNet = network(new Nesterovs(0.05, 0.9));
        try (PrivateTrainer host = trainer(hostNet, false); PrivateTrainer device = trainer(deviceNet, true)) {
            host.fitEpoch();
            device.fitEpoch();
            host.network().params().muli(0.5);
            device.network().params().muli(0.5);
            host.network().getUpdater().getStateViewArray().assign(0.01);
            device.network().getUpdater().getStateViewArray().assign(0.01);
            host.fitEpoch();
            device.fitEpoch();
            assertClose(hostNet.params(), deviceNet.params(), "parameters after writes between epochs");
            assertClose(hostNet.getUpdater().getStateViewArray(), deviceNet.getUpdater().getStateViewArray(),
                    "updater state after writes between epochs");
        }
    }

    @Test
    void aCheckpointOfTheDevicePathResumesAsAnUninterruptedRun() {
        MultiLayerNetwork uninterrupted = network(new Nesterovs(0.05, 0.9));
        MultiLayerNetwork first = network(new Nesterovs(0.05, 0.9));
        MultiLayerNetwork resumed = network(new Nesterovs(0.05, 0.9));
        try (PrivateTrainer host = trainer(uninterrupted, false); PrivateTrainer a = trainer(first, true);
             PrivateTrainer b = trainer(resumed, true)) {
            host.fitEpoch();
            host.fitEpoch();
            a.fitEpoch();
            a.step();   // a step outside an epoch, then a checkpoint as the training loop writes it
            RunState state = a.state();
            long done = a.steps();
            b.restore(state, done);
            long rest = host.steps() - done;
            b.run(rest);
            assertClose(uninterrupted.params(), resumed.params(), "parameters of the resumed run");
            assertClose(uninterrupted.getUpdater().getStateViewArray(), resumed.getUpdater().getStateViewArray(),
                    "updater state of the resumed run");
        }
    }

    @Test
    void updatersTheDeviceDoesNotApplyStayOnTheHostSayingWhy() {
        MultiLayerNetwork hostNet = network(new Adam(0.01));
        MultiLayerNetwork deviceNet = network(new Adam(0.01));
        try (PrivateTrainer host = trainer(hostNet, false); PrivateTrainer device = trainer(deviceNet, true)) {
            assertTrue(device.deviceResidence().contains("updater on the host") && device.deviceResidence().contains("Adam"),
                    device.deviceResidence());
            host.fitEpoch();
            device.fitEpoch();
            assertClose(hostNet.params(), deviceNet.params(), "Adam: clipping on the device, updater on the host");
        }
    }

    @Test
    void aStepOfTheOptimizerLeavesTheNetworkCurrent() {
        MultiLayerNetwork hostNet = network(new Sgd(0.2));
        MultiLayerNetwork deviceNet = network(new Sgd(0.2));
        NoiseKey key = new NoiseKey(3, "resident-optimizer", 0, 0);
        DpOptimizer host = new DpOptimizer(hostNet, 1.0, 0.7, 32, SeededNoiseSource.forKey(key), ComputeDevice.CPU);
        DpOptimizer device = new DpOptimizer(deviceNet, 1.0, 0.7, 32, SeededNoiseSource.forKey(key),
                new CudaExampleGradients(DpModelValidator.validate(deviceNet), new JavaBackend(), true));
        try {
            for (int s = 0; s < 3; s++) {
                INDArray x = X.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(s * 30, s * 30 + 25 + s));
                INDArray y = Y.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(s * 30, s * 30 + 25 + s));
                host.step(x, y);
                device.step(x, y);
                assertClose(hostNet.params(), deviceNet.params(), "after optimizer step " + s);
            }
            // an empty batch: only the noise moves the model
            INDArray none = X.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(0, 0));
            INDArray noLabels = Y.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(0, 0));
            host.step(none, noLabels);
            device.step(none, noLabels);
            assertClose(hostNet.params(), deviceNet.params(), "after an empty batch");
        } finally {
            host.close();
            device.close();
        }
    }

    private static MultiLayerNetwork saveAndRestore(MultiLayerNetwork net) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ModelSerializer.writeModel(net, bytes, true);
        return ModelSerializer.restoreMultiLayerNetwork(new ByteArrayInputStream(bytes.toByteArray()), true);
    }

    /** What listeners of each kind read at every step: a parameter-reading listener, the average, the observers. */
    private static final class Readers {
        final List<INDArray> atIterationDone = new ArrayList<>();
        final List<INDArray> gradientsSeen = new ArrayList<>();
        final List<INDArray> observed = new ArrayList<>();
        final List<INDArray> released = new ArrayList<>();
        final ParameterAverage average = ParameterAverage.exponential(0.9);

        Readers(MultiLayerNetwork net) {
            net.setListeners(new ScoreIterationListener(1000), average, new BaseTrainingListener() {
                @Override
                public void onGradientCalculation(Model model) {
                    gradientsSeen.add(model.gradient().gradient().dup());
                }

                @Override
                public void iterationDone(Model model, int iteration, int epoch) {
                    atIterationDone.add(model.params().dup());
                }
            });
        }

        void assertSameAs(Readers other) {
            assertEquals(atIterationDone.size(), other.atIterationDone.size());
            assertEquals(observed.size(), other.observed.size());
            for (int s = 0; s < atIterationDone.size(); s++) {
                assertClose(atIterationDone.get(s), other.atIterationDone.get(s), "a listener's parameters at step " + s);
                assertClose(gradientsSeen.get(s), other.gradientsSeen.get(s), "a listener's gradient at step " + s);
                assertClose(observed.get(s), other.observed.get(s), "an observer's parameters at step " + s);
                assertClose(released.get(s), other.released.get(s), "an observer's released gradient at step " + s);
            }
            assertClose(average.parameters(), other.average.parameters(), "the parameter average");
        }
    }

    static void assertClose(INDArray expected, INDArray got, String what) {
        INDArray e = expected.castTo(DataType.DOUBLE).reshape(expected.length());
        INDArray g = got.castTo(DataType.DOUBLE).reshape(got.length());
        double err = e.sub(g).norm2Number().doubleValue() / Math.max(1e-30, e.norm2Number().doubleValue());
        assertTrue(err <= TOLERANCE, what + ": relative L2 difference " + err);
    }
}
