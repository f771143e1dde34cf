package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cuda.device.CudaBackend;
import org.dpdl4j.cuda.device.CudaProbe;
import org.dpdl4j.cuda.device.CudaStatus;
import org.dpdl4j.cuda.device.CudaUnavailableException;
import org.dpdl4j.cuda.engine.StackedDenseModels;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.DeviceEngine;
import org.dpdl4j.optim.DeviceEngines;
import org.dpdl4j.optim.DeviceUnavailableException;
import org.dpdl4j.optim.DpModelValidator;
import org.dpdl4j.optim.ExampleGradients;
import org.dpdl4j.optim.TestNetworks;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** The core finds the CUDA engine by service lookup, and chooses or refuses it as --device says, with the reasons. */
class DeviceSelectionTest {
    private static final MultiLayerNetwork MLP = EngineCases.network(Activation.RELU, Activation.SOFTMAX, LossFunction.MCXENT,
            new int[]{20, 8, 3});

    @Test
    void theCoreFindsTheCudaEngineByServiceLookup() {
        DeviceEngine engine = DeviceEngines.find(ComputeDevice.CUDA).orElseThrow();
        assertInstanceOf(CudaDeviceEngine.class, engine);
        assertFalse(engine.report().facts().isEmpty(), "the report lists what it found");
    }

    @Test
    void withoutAGpuAutoTakesTheCpuAndCudaIsRefusedSayingWhatIsMissing() {
        CudaStatus status = CudaProbe.status();
        assumeFalse(status.usable(), "checks the machine without a usable CUDA GPU; this one has one");
        assertNotNull(status.problem());
        assertFalse(ExampleGradients.of(MLP, ComputeDevice.AUTO) instanceof CudaExampleGradients, "auto falls back to the CPU");
        DeviceUnavailableException e = assertThrows(DeviceUnavailableException.class,
                () -> ExampleGradients.of(MLP, ComputeDevice.CUDA));
        assertTrue(e.getMessage().startsWith("--device cuda: "), e.getMessage());
        assertTrue(e.getMessage().contains(status.problem()), e.getMessage());
        assertTrue(e.getMessage().endsWith("or use --device cpu"), e.getMessage());
        assertTrue(status.problem().contains("driver") || status.problem().contains("LD_LIBRARY_PATH"),
                "the problem names the driver or the libraries and how to fix it: " + status.problem());
        CudaUnavailableException refused = assertThrows(CudaUnavailableException.class, CudaBackend::open);
        assertEquals(status.problem(), refused.getMessage());
    }

    @Test
    void withoutAGpuANumberedGpuIsRefusedSayingWhatIsMissing() {
        CudaStatus status = CudaProbe.status();
        assumeFalse(status.usable(), "checks the machine without a usable CUDA GPU; this one has one");
        DeviceUnavailableException e = assertThrows(DeviceUnavailableException.class,
                () -> ExampleGradients.of(MLP, ComputeDevice.cuda(2)));
        assertTrue(e.getMessage().startsWith("--device cuda:2: ") && e.getMessage().contains(status.problem()),
                e.getMessage());
    }

    /** cuda:N opens the GPU CUDA numbers N, whatever its place among the usable ones; a number CUDA does not show is refused. */
    @Test
    void onAGpuANumberedGpuIsThatGpuAndAnAbsentNumberIsRefusedNamingTheUsableOnes() throws Exception {
        CudaStatus status = CudaProbe.status();
        org.junit.jupiter.api.Assumptions.assumeTrue(status.usable(),
                "needs a usable CUDA GPU (H100/H200 device check); this machine has none: " + status.problem());
        int last = status.gpus().get(status.gpus().size() - 1).ordinal();
        try (CudaExampleGradients onLast = (CudaExampleGradients) ExampleGradients.of(MLP, ComputeDevice.cuda(last))) {
            assertTrue(onLast.describe().startsWith("GPU " + last + " "), onLast.describe());
        }
        DeviceUnavailableException e = assertThrows(DeviceUnavailableException.class,
                () -> ExampleGradients.of(MLP, ComputeDevice.cuda(999)));
        assertTrue(e.getMessage().startsWith("--device cuda:999: ") && e.getMessage().contains("GPU 999 was named")
                && e.getMessage().contains("usable: " + status.gpus().get(0).ordinal() + " ("), e.getMessage());
    }

    @Test
    void networksTheEngineDoesNotComputeAreRefusedWithTheReason() {
        MultiLayerNetwork doubles = TestNetworks.mlp(DataType.DOUBLE, 3, Activation.RELU, Activation.SOFTMAX,
                LossFunction.MCXENT, new Sgd(0.1), 20, 8, 3);
        assertTrue(DenseModels.whyNot(DpModelValidator.validate(doubles)).contains("float32"));
        MultiLayerNetwork softsign = TestNetworks.mlp(DataType.FLOAT, 3, Activation.SOFTSIGN, Activation.SOFTMAX,
                LossFunction.MCXENT, new Sgd(0.1), 20, 8, 3);
        assertTrue(DenseModels.whyNot(DpModelValidator.validate(softsign)).contains("has no CUDA kernel"));
        assertEquals(null, DenseModels.whyNot(DpModelValidator.validate(MLP)));
    }

    @Test
    void withoutAGpuConvolutionalNetworksStayOnTheCpuAndCudaIsRefusedSayingWhy() {
        assumeFalse(CudaProbe.status().usable(), "checks the machine without a usable CUDA GPU; this one has one");
        MultiLayerNetwork cnn = org.dpdl4j.models.ModelKind.CNN.network(784, 10,
                org.dpdl4j.models.ModelOptions.defaults().withDataType(DataType.FLOAT));
        assertFalse(ExampleGradients.of(cnn, ComputeDevice.AUTO) instanceof CudaExampleGradients, "auto falls back to the CPU");
        DeviceUnavailableException e = assertThrows(DeviceUnavailableException.class,
                () -> ExampleGradients.of(cnn, ComputeDevice.CUDA));
        assertTrue(e.getMessage().startsWith("--device cuda: ") && e.getMessage().contains(CudaProbe.status().problem()),
                e.getMessage());
        assertTrue(new CudaDeviceEngine().whyNotConvolutional(cnn).contains("cannot run here"),
                "the engine computes the CNN but cannot run here: " + new CudaDeviceEngine().whyNotConvolutional(cnn));
    }

    /** n node models that do not fit the GPU's free memory are refused before any allocation, saying how many fit. */
    @Test
    void nodeModelsThatDoNotFitAreRefusedSayingHowManyFit() {
        var spec = DpModelValidator.validate(MLP);
        var model = DenseModels.of(spec);
        long free = StackedDenseModels.bytesFor(model, 1000, 0) - 1;
        int fit = StackedDenseModels.nodesThatFit(model, 0, free);
        assertEquals(999, fit, "one byte short of 1,000 nodes");
        assertTrue(StackedDenseModels.bytesFor(model, fit, 64) > free, "a batch needs room too");
        int withBatches = StackedDenseModels.nodesThatFit(model, 64, free);
        assertTrue(StackedDenseModels.bytesFor(model, withBatches, 64) <= free
                && StackedDenseModels.bytesFor(model, withBatches + 1, 64) > free, "the most that fit: " + withBatches);
        assertEquals(0, StackedDenseModels.nodesThatFit(model, 0, 10));
        CudaDeviceEngine.requireRoomFor(spec, fit, free, "the test GPU");
        DeviceUnavailableException e = assertThrows(DeviceUnavailableException.class,
                () -> CudaDeviceEngine.requireRoomFor(spec, 1000, free, "the test GPU"));
        assertTrue(e.getMessage().startsWith("1000 node models of " + spec.numParams() + " parameters need ")
                && e.getMessage().contains("the test GPU has") && e.getMessage().contains("room for at most 999 such nodes")
                && e.getMessage().contains("--engine spark"), e.getMessage());
    }

    @Test
    void theCpuIsAlwaysTheCpu() {
        assertFalse(ExampleGradients.of(MLP, ComputeDevice.CPU) instanceof CudaExampleGradients);
    }
}
