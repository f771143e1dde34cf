package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cuda.engine.ConvNetModel;
import org.dpdl4j.cuda.engine.DenseModel;
import org.dpdl4j.cuda.engine.DoubleOracle;
import org.dpdl4j.optim.DpModelValidator;
import org.dpdl4j.optim.PerExampleGradientOracle;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ND4J-free oracle the device check uses on the GPU machine equals dpdl4j's DL4J-based batch-of-one oracle in double
 * precision, for dense and convolutional networks (1e-9: the engine's model keeps a leaky ReLU's slope as a float, 0.01f rather than 0.01, as the host engine
 * does), so holding the GPU to it there is holding it to DL4J's own backpropagation.
 */
class DoubleOracleTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.dpdl4j.cuda.dl4j.EngineCases#networks")
    void equalsDl4jsOneExampleAtATime(String name, Activation hidden, Activation out, LossFunction loss, int[] sizes, int b) {
        MultiLayerNetwork net = EngineCases.network(hidden, out, loss, sizes);
        INDArray x = EngineCases.features(b, sizes);
        INDArray y = EngineCases.labels(loss, b, sizes);
        DenseModel model = DenseModels.of(DpModelValidator.validate(net));
        float[] params = net.params().toFloatVector();
        INDArray truth = PerExampleGradientOracle.perExampleGradients(net, x, y);
        double median = truth.norm2(1).medianNumber().doubleValue();
        for (double clip : new double[]{Double.POSITIVE_INFINITY, median / 2}) {
            DoubleOracle.Result r = DoubleOracle.clippedSum(model, params, EngineCases.rowMajor(x), EngineCases.rowMajor(y), b, clip);
            INDArray expected = PerExampleGradientOracle.clippedSum(truth, clip);
            double err = expected.sub(org.nd4j.linalg.factory.Nd4j.createFromArray(r.clippedSum())).norm2Number().doubleValue()
                    / expected.norm2Number().doubleValue();
            assertTrue(err < 1e-9, name + ", C = " + clip + ": relative error " + err);
            double[] norms = truth.norm2(1).castTo(DataType.DOUBLE).toDoubleVector();
            for (int i = 0; i < b; i++) {
                assertTrue(Math.abs(norms[i] - r.norms()[i]) <= 1e-9 * norms[i], name + ", norm " + i);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.dpdl4j.cuda.dl4j.ConvNetReferenceTest#networks")
    void equalsDl4jsOneExampleAtATimeForConvolutions(String name, MultiLayerNetwork net, int b) {
        ConvNetModel model = ConvNetModels.of(net);
        INDArray x = org.nd4j.linalg.factory.Nd4j.rand(DataType.FLOAT, b, model.nIn());
        INDArray y = org.nd4j.linalg.factory.Nd4j.zeros(DataType.FLOAT, b, model.nOut());
        for (int i = 0; i < b; i++) {
            y.putScalar(i, (i * 3 + 1) % model.nOut(), 1.0);
        }
        float[] params = net.params().toFloatVector();
        INDArray truth = PerExampleGradientOracle.perExampleGradients(net, x, y);
        double median = truth.norm2(1).medianNumber().doubleValue();
        for (double clip : new double[]{Double.POSITIVE_INFINITY, median / 2}) {
            DoubleOracle.Result r = DoubleOracle.clippedSum(model, params, EngineCases.rowMajor(x), EngineCases.rowMajor(y), b, clip);
            INDArray expected = PerExampleGradientOracle.clippedSum(truth, clip);
            double err = expected.sub(org.nd4j.linalg.factory.Nd4j.createFromArray(r.clippedSum())).norm2Number().doubleValue()
                    / expected.norm2Number().doubleValue();
            assertTrue(err < 1e-9, name + ", C = " + clip + ": relative error " + err);
        }
    }
}
