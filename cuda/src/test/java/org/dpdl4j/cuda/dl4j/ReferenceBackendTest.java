package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cuda.engine.JavaBackend;
import org.dpdl4j.optim.DpModelValidator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/**
 * The whole CUDA engine path - the adapter, the step's orchestration (layouts, leading dimensions, transposes, offsets
 * of every product and kernel), the kernels' arithmetic - on the plain-Java reference backend, against dpdl4j's host
 * engine and the batch-of-one oracle. What this cannot check is left to the GPU tests: cuBLAS and the CUDA C kernels
 * themselves, which mirror the reference operation by operation.
 */
class ReferenceBackendTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.dpdl4j.cuda.dl4j.EngineCases#networks")
    void equalsTheHostEngineAndTheOracle(String name, Activation hidden, Activation out, LossFunction loss, int[] sizes, int b) {
        MultiLayerNetwork net = EngineCases.network(hidden, out, loss, sizes);
        INDArray x = EngineCases.features(b, sizes);
        INDArray y = EngineCases.labels(loss, b, sizes);
        try (CudaExampleGradients engine = new CudaExampleGradients(DpModelValidator.validate(net), new JavaBackend(), true)) {
            HostComparison.assertMatchesHost(engine, net, x, y, name);
            // a smaller batch after a larger one: buffers sized for the larger must not leak into the result
            INDArray x2 = EngineCases.features(3, sizes);
            INDArray y2 = EngineCases.labels(loss, 3, sizes);
            HostComparison.assertMatchesHost(engine, net, x2, y2, name + ", then a batch of 3");
        }
    }
}
