package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cuda.device.CudaBackend;
import org.dpdl4j.cuda.device.CudaProbe;
import org.dpdl4j.cuda.engine.JavaBackend;
import org.dpdl4j.optim.DpModelValidator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The engine on a real GPU: the same checks as on the reference backend (host engine and batch-of-one oracle, 1e-5,
 * clipping active and inactive) for dense and convolutional networks, training kept on the GPU equal to the host path,
 * and the device's Philox noise equal to the reference's. Skipped, with the probe's
 * reason, where there is no usable GPU; never passed without one.
 */
class CudaEngineGpuTest {

    @BeforeAll
    static void needsAGpu() {
        assumeTrue(CudaProbe.status().usable(), () -> "needs a CUDA GPU and the CUDA 13 libraries (" + gpuMissing() + ")");
    }

    /** A short, stable reason (the probe's full message names machine paths). */
    private static String gpuMissing() {
        String p = CudaProbe.status().problem();
        return p.contains("driver") && !p.contains("LD_LIBRARY_PATH") ? "no GPU or driver" : "no GPU, driver or CUDA 13 libraries";
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.dpdl4j.cuda.dl4j.EngineCases#networks")
    void equalsTheHostEngineAndTheOracle(String name, Activation hidden, Activation out, LossFunction loss, int[] sizes, int b) {
        MultiLayerNetwork net = EngineCases.network(hidden, out, loss, sizes);
        try (CudaExampleGradients engine = new CudaExampleGradients(DpModelValidator.validate(net), CudaBackend.open(), true)) {
            for (int batch : new int[]{b, 256, 3}) {
                INDArray x = EngineCases.features(batch, sizes);
                INDArray y = EngineCases.labels(loss, batch, sizes);
                HostComparison.assertMatchesHost(engine, net, x, y, name + " on " + engine.describe() + ", batch " + batch);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.dpdl4j.cuda.dl4j.ConvNetReferenceTest#networks")
    void convolutionalNetworksEqualTheCpuEngineAndTheOracle(String name, MultiLayerNetwork net, int b) {
        assumeTrue(CudaProbe.cudnnProblem() == null, "needs cuDNN 9 for CUDA 13 (the pip package nvidia-cudnn-cu13)");
        var pre = (org.deeplearning4j.nn.conf.preprocessor.FeedForwardToCnnPreProcessor)
                net.getLayerWiseConfigurations().getInputPreProcess(0);
        int pixels = (int) (pre.getNumChannels() * pre.getInputHeight() * pre.getInputWidth());
        int classes = (int) net.getOutputLayer().getParam("b").length();
        try (CudaExampleGradients engine = CudaExampleGradients.convolutional(net, CudaBackend.open(), true)) {
            for (int batch : new int[]{b, 64}) {
                INDArray x = org.nd4j.linalg.factory.Nd4j.rand(org.nd4j.linalg.api.buffer.DataType.FLOAT, batch, pixels);
                INDArray y = org.nd4j.linalg.factory.Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.FLOAT, batch, classes);
                for (int i = 0; i < batch; i++) {
                    y.putScalar(i, i % classes, 1.0);
                }
                HostComparison.assertMatchesHost(engine, net, x, y, name + " on " + engine.describe() + ", batch " + batch);
            }
        }
    }

    @Test
    void trainingKeptOnTheGpuEqualsTheHostPath() {
        MultiLayerNetwork hostNet = ResidentTrainingTest.network(new org.nd4j.linalg.learning.config.Nesterovs(0.05, 0.9));
        MultiLayerNetwork gpuNet = ResidentTrainingTest.network(new org.nd4j.linalg.learning.config.Nesterovs(0.05, 0.9));
        try (var host = ResidentTrainingTest.trainer(hostNet, null);
             var gpu = ResidentTrainingTest.trainer(gpuNet, new CudaExampleGradients(DpModelValidator.validate(gpuNet),
                     CudaBackend.open(), true))) {
            assertTrue(gpu.deviceResidence().startsWith("parameters, updater state and gradient stay on the device"));
            for (int e = 0; e < 2; e++) {
                host.fitEpoch();
                gpu.fitEpoch();
            }
            ResidentTrainingTest.assertClose(hostNet.params(), gpuNet.params(), "parameters after two epochs on the GPU");
            ResidentTrainingTest.assertClose(hostNet.getUpdater().getStateViewArray(), gpuNet.getUpdater().getStateViewArray(),
                    "momentum after two epochs on the GPU");
        }
    }

    @Test
    void philoxNoiseEqualsTheReference() {
        MultiLayerNetwork net = EngineCases.network(Activation.RELU, Activation.SOFTMAX, LossFunction.MCXENT, new int[]{30, 20, 5});
        float[] gpu;
        try (CudaBackend backend = CudaBackend.open()) {
            gpu = DeviceStepTest.philoxStep(backend, net, 1f);
        }
        float[] cpu = DeviceStepTest.philoxStep(new JavaBackend(), net, 1f);
        for (int j = 0; j < cpu.length; j++) {
            assertTrue(Math.abs(gpu[j] - cpu[j]) <= 1e-6f * Math.max(1f, Math.abs(cpu[j])), "draw " + j + ": " + gpu[j] + " vs " + cpu[j]);
        }
        DeviceStepTest.assertNoiseOfStd(gpu, 1.0);   // equal draws that are noise, not equal zeros
    }
}
