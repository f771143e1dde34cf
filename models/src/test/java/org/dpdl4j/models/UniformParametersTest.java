package org.dpdl4j.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

class UniformParametersTest {

    private static MultiLayerNetwork dlg(long seed, DataType type) {
        return DlgLeNetModel.network(ImageShape.MNIST, 10, DlgLeNetModel.InputFormat.FLAT,
                ModelOptions.defaults().withSeed(seed).withDataType(type));
    }

    @Test
    void everyParameterIncludingBiasesIsUniformOnMinusHalfToHalf() {
        MultiLayerNetwork net = dlg(1234, DataType.DOUBLE);
        INDArray params = net.params();
        long n = params.length();
        assertTrue(params.minNumber().doubleValue() >= -0.5);
        assertTrue(params.maxNumber().doubleValue() < 0.5);
        // Mean 0 and variance 1/12 within five standard errors.
        double mean = params.meanNumber().doubleValue();
        assertEquals(0.0, mean, 5 * Math.sqrt(1.0 / 12 / n));
        double variance = params.varNumber().doubleValue();
        assertEquals(1.0 / 12, variance, 5 * Math.sqrt(1.0 / 180 / n));
        for (int layer = 0; layer < 4; layer++) {
            INDArray bias = net.getParam(layer + "_b");
            assertTrue(bias.maxNumber().doubleValue() - bias.minNumber().doubleValue() > 0.1,
                    "biases of layer " + layer + " must not be constant: " + bias);
        }
    }

    @Test
    void sameSeedSameParametersDifferentSeedDifferentParameters() {
        assertEquals(dlg(7, DataType.DOUBLE).params(), dlg(7, DataType.DOUBLE).params());
        assertNotEquals(dlg(7, DataType.DOUBLE).params(), dlg(8, DataType.DOUBLE).params());
    }

    @Test
    void floatNetworkHoldsTheDoubleDrawsRounded() {
        INDArray asFloat = dlg(9, DataType.FLOAT).params();
        INDArray asDouble = dlg(9, DataType.DOUBLE).params();
        assertEquals(DataType.FLOAT, asFloat.dataType());
        assertTrue(asFloat.castTo(DataType.DOUBLE).equalsWithEps(asDouble, 1e-7));
    }

    @Test
    void rejectsBadBoundsAndUninitialisedNetworks() {
        MultiLayerNetwork net = dlg(1, DataType.FLOAT);
        assertThrows(IllegalArgumentException.class, () -> UniformParameters.fill(net, 1, 0.5, 0.5));
        assertThrows(IllegalArgumentException.class, () -> UniformParameters.fill(net, 1, Double.NaN, 0.5));
        MultiLayerNetwork fresh = new MultiLayerNetwork(SoftmaxRegressionModel.configuration(4, 2,
                ModelOptions.defaults()));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> UniformParameters.fill(fresh, 1, -1, 1));
        assertTrue(e.getMessage().contains("init()"), e.getMessage());
    }
}
