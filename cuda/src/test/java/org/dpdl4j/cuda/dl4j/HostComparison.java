package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.ExampleGradients;
import org.dpdl4j.optim.PerExampleGradientOracle;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Holds an engine to dpdl4j's host engine (CPU) and to the batch-of-one oracle in double: the clipped sum to 1e-5
 * relative (L2), each norm to 1e-5 of the batch's largest, the loss sum to 1e-5 relative, with clipping inactive
 * (C infinite, and C above every norm) and active (C at the median norm and a tenth of it), with and without the
 * feature norms supplied.
 */
final class HostComparison {
    static final double TOLERANCE = 1e-5;

    private HostComparison() {
    }

    static void assertMatchesHost(ExampleGradients engine, MultiLayerNetwork net, INDArray x, INDArray y, String name) {
        ExampleGradients host = ExampleGradients.of(net, ComputeDevice.CPU);
        INDArray reference = Nd4j.create(DataType.FLOAT, 1, net.numParams());
        double median = host.sumClipped(net.params(), x, y, null, Double.MAX_VALUE, reference).norms().medianNumber().doubleValue();
        double max = host.sumClipped(net.params(), x, y, null, Double.MAX_VALUE, reference).norms().maxNumber().doubleValue();
        for (double clip : new double[]{Double.POSITIVE_INFINITY, 2 * max, median, median / 10}) {
            for (boolean supplyNorms : new boolean[]{false, true}) {
                INDArray xNorms = supplyNorms ? x.mul(x).sum(1) : null;
                String where = name + ", C = " + clip + (supplyNorms ? ", feature norms supplied" : "");
                ClippedBatch expected = host.sumClipped(net.params(), x, y, xNorms, clip, reference);
                INDArray sum = Nd4j.create(DataType.FLOAT, 1, net.numParams());
                ClippedBatch got = engine.sumClipped(net.params(), x, y, xNorms, clip, sum);
                assertRelative(expected.lossSums().getDouble(0), got.lossSums().getDouble(0), "loss sum, " + where);
                if (Double.isInfinite(clip)) {
                    assertNull(got.norms(), "no norms without clipping, " + where);
                } else {
                    double[] e = expected.norms().toDoubleVector();
                    double[] g = got.norms().toDoubleVector();
                    assertEquals(e.length, g.length, where);
                    double largest = 0;
                    double worst = 0;
                    for (int i = 0; i < e.length; i++) {
                        largest = Math.max(largest, e[i]);
                        worst = Math.max(worst, Math.abs(e[i] - g[i]));
                    }
                    assertTrue(worst <= TOLERANCE * largest, "norms differ by " + worst + " (largest " + largest + "), " + where);
                }
                double err = sum.castTo(DataType.DOUBLE).sub(reference.castTo(DataType.DOUBLE)).norm2Number().doubleValue()
                        / reference.castTo(DataType.DOUBLE).norm2Number().doubleValue();
                assertTrue(err <= TOLERANCE, "clipped sum differs from the host engine's by " + err + " (relative), " + where);
            }
        }
        INDArray truth = PerExampleGradientOracle.perExampleGradients(net, x, y);
        for (double clip : new double[]{Double.POSITIVE_INFINITY, median / 3}) {
            PerExampleGradientOracle.Comparison c = PerExampleGradientOracle.compare(truth, engine, net.params(), x, y, clip);
            assertTrue(c.sumRelativeError() <= TOLERANCE, "clipped sum " + c.sumRelativeError() + " from the oracle, "
                    + name + ", C = " + clip);
            assertTrue(c.maxNormRelativeError() <= TOLERANCE, "norms " + c.maxNormRelativeError() + " from the oracle, "
                    + name + ", C = " + clip);
        }
    }

    static void assertRelative(double expected, double got, String what) {
        assertTrue(Math.abs(expected - got) <= TOLERANCE * Math.max(Math.abs(expected), 1e-30),
                what + ": expected " + expected + ", got " + got);
    }
}
