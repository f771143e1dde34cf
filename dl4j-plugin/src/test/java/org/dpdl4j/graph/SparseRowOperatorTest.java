package org.dpdl4j.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class SparseRowOperatorTest {

    /** Checks both paths: short rows take the dense product, long rows one axpy per non-zero. */
    private static void assertSameAsDenseProduct(double[][] a, DataType type, double tolerance) {
        assertSameAsDenseProduct(a, type, tolerance, 37);
        assertSameAsDenseProduct(a, type, tolerance, 5000);
    }

    private static void assertSameAsDenseProduct(double[][] a, DataType type, double tolerance, int p) {
        Random r = new Random(7);
        int m = a[0].length;
        double[][] x = new double[m][p];
        for (double[] row : x) {
            for (int k = 0; k < p; k++) {
                row[k] = r.nextGaussian();
            }
        }
        INDArray xs = Nd4j.create(x).castTo(type);
        INDArray out = Nd4j.valueArrayOf(new long[] {a.length, p}, 99.0, type);   // stale content is overwritten
        SparseRowOperator.of(a).apply(xs, out);
        INDArray expected = Nd4j.create(a).mmul(Nd4j.create(x));
        assertEquals(0.0, expected.sub(out.castTo(DataType.DOUBLE)).amaxNumber().doubleValue(), tolerance);
    }

    @Test
    void ringGossipMatchesTheDenseProduct() {
        MixingMatrix w = MixingMatrix.metropolisHastings(Topologies.ring(12));
        double[][] a = w.toINDArray(DataType.DOUBLE).toDoubleMatrix();
        assertFalse(SparseRowOperator.of(a).isDenseFor(100_000), "long rows: one axpy per non-zero");
        assertTrue(SparseRowOperator.of(a).isDenseFor(11), "short rows: op calls cost more than the zeros");
        assertEquals(36, SparseRowOperator.of(a).nonZeros());
        assertSameAsDenseProduct(a, DataType.DOUBLE, 1e-14);
        assertSameAsDenseProduct(a, DataType.FLOAT, 1e-5);
    }

    @Test
    void incidenceWithEmptyRowsAndRectangularShape() {
        // 4 nodes, 2 edges (0,1) and (1,2); node 3 is isolated, so its row must be written as zeros.
        double[][] b = {{1, 0}, {-1, 1}, {0, -1}, {0, 0}};
        assertSameAsDenseProduct(b, DataType.DOUBLE, 0);
    }

    @Test
    void denseMatricesUseOneProduct() {
        MixingMatrix w = MixingMatrix.averaging(Topologies.complete(6));
        double[][] a = w.toINDArray(DataType.DOUBLE).toDoubleMatrix();
        assertTrue(SparseRowOperator.of(a).isDenseFor(100_000));
        assertSameAsDenseProduct(a, DataType.DOUBLE, 1e-14);
    }

    @Test
    void shapesAreChecked() {
        SparseRowOperator op = SparseRowOperator.of(new double[][] {{1, 0}, {0, 1}});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> op.apply(Nd4j.zeros(3, 4), Nd4j.zeros(2, 4)));
        assertTrue(e.getMessage().contains("2x2"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SparseRowOperator.of(new double[][] {{1, Double.NaN}}));
    }
}
