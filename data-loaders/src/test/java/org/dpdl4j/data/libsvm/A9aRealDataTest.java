package org.dpdl4j.data.libsvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import org.dpdl4j.data.RealData;
import org.dpdl4j.data.TrainTest;
import org.dpdl4j.data.catalog.DatasetCatalog;
import org.dpdl4j.data.catalog.Datasets;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;

/** Reads the real a9a files; skipped when DPDL4J_DATA does not provide them. */
class A9aRealDataTest {
    @Test
    void countsMatchTheReferenceCopy() throws IOException {
        RealData.file(DatasetCatalog.A9A_TRAIN);
        RealData.file(DatasetCatalog.A9A_TEST);
        TrainTest a9a = Datasets.a9a(RealData.directory());
        assertEquals(32561, a9a.train().size());
        assertEquals(16281, a9a.test().size());
        assertEquals(123, a9a.train().numFeatures());
        assertEquals(123, a9a.test().numFeatures());
        // class 0 = label -1, class 1 = label +1
        assertArrayEquals(new int[] {24720, 7841}, a9a.train().labelHistogram());
        assertArrayEquals(new int[] {12435, 3846}, a9a.test().labelHistogram());
        // Every value is 1, so the sum of the features is the number of non-zeros.
        assertEquals(451592.0, a9a.train().features().castTo(DataType.DOUBLE).sumNumber().doubleValue(), 0);
        assertEquals(225731.0, a9a.test().features().castTo(DataType.DOUBLE).sumNumber().doubleValue(), 0);
        assertEquals(1.0, a9a.train().features().maxNumber().doubleValue(), 0);
        // Index 123 occurs in training but never in the test file.
        assertEquals(0.0, a9a.test().features().getColumn(122).sumNumber().doubleValue(), 0);
    }
}
