package org.dpdl4j.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Rows of an operator applied where only they are held equal the rows of the whole product, bit for bit. */
class OperatorRowsTest {

    @ParameterizedTest
    @ValueSource(ints = {7, 20_000})   // short rows: one dense product; long rows: one axpy per non-zero
    void blocksOfRowsEqualTheWholeProduct(int p) {
        Graph ring = Topologies.ring(10);
        SparseRowOperator w = SparseRowOperator.of(MixingMatrix.metropolisHastings(ring).toArray());
        INDArray x = Nd4j.rand(DataType.FLOAT, 10, p).subi(0.5);
        INDArray whole = Nd4j.create(DataType.FLOAT, 10, p);
        w.apply(x, whole);
        int[][] blocks = {{0, 3}, {3, 4}, {4, 10}};
        for (int[] b : blocks) {
            OperatorRows rows = w.rows(b[0], b[1], p);
            assertEquals(w.isDenseFor(p), rows.isDense());
            INDArray out = Nd4j.create(DataType.FLOAT, b[1] - b[0], p);
            rows.apply(Nd4j.pullRows(x, 1, rows.reads()), out);
            for (int i = b[0]; i < b[1]; i++) {
                assertArrayEquals(whole.getRow(i).toFloatVector(), out.getRow(i - b[0]).toFloatVector(), "row " + i);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 4, 9})
    void aRowReadsItsNeighboursAndItself(int i) {
        Graph ring = Topologies.ring(10);
        OperatorRows rows = SparseRowOperator.of(MixingMatrix.metropolisHastings(ring).toArray()).rows(i, i + 1, 100_000);
        assertFalse(rows.isDense());
        int[] reads = rows.reads();
        assertEquals(3, reads.length);
        for (int j : reads) {
            assertTrue(j == i || ring.hasEdge(i, j), "reads " + j);
        }
    }
}
