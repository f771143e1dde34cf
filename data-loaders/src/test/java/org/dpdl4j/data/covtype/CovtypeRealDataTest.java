package org.dpdl4j.data.covtype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.RandomStreams;
import org.dpdl4j.data.RealData;
import org.dpdl4j.data.catalog.DatasetCatalog;
import org.dpdl4j.data.catalog.Datasets;
import org.junit.jupiter.api.Test;

/** Reads the real covtype subsets; skipped when DPDL4J_DATA does not provide them. */
class CovtypeRealDataTest {
    @Test
    void subset93kClassCounts() throws IOException {
        RealData.file(DatasetCatalog.COVTYPE_93K);
        LabeledData seven = Datasets.covtype93k(RealData.directory(), CovtypeTask.SEVEN_CLASS);
        assertEquals(92962, seven.size());
        assertEquals(54, seven.numFeatures());
        assertArrayEquals(new int[] {33894, 45328, 5721, 439, 1519, 2779, 3282}, seven.labelHistogram());
        assertTrue(seven.features().minNumber().doubleValue() >= 0);
        assertTrue(seven.features().maxNumber().doubleValue() <= 1);
        // The binary task relabels the same rows: cover type 2 against the rest.
        int[] binary = new int[seven.size()];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = seven.label(i) == 1 ? 1 : 0;
        }
        LabeledData two = CovtypeReader.read(RealData.file(DatasetCatalog.COVTYPE_93K),
                CovtypeOptions.of(CovtypeLayout.SCALED_WITH_HEADER, CovtypeTask.TYPE2_VS_REST));
        assertArrayEquals(new int[] {47634, 45328}, two.labelHistogram());
        assertArrayEquals(binary, two.labels());
    }

    @Test
    void subset20kLabelCounts() throws IOException {
        RealData.file(DatasetCatalog.COVTYPE_20K);
        LabeledData d = Datasets.covtype20k(RealData.directory());
        assertEquals(20000, d.size());
        // label 1 (any other cover type) -> class 0: 10186; label 2 (cover type 2) -> class 1: 9814
        assertArrayEquals(new int[] {10186, 9814}, d.labelHistogram());
        assertTrue(d.features().minNumber().doubleValue() >= 0);
        assertTrue(d.features().maxNumber().doubleValue() <= 1);
        // The file is sorted by label; a shuffle mixes the classes into the first thousand rows.
        int[] firstLabels = d.shuffled(3).subset(RandomStreams.identity(1000)).labelHistogram();
        assertTrue(firstLabels[0] > 400 && firstLabels[1] > 400, Arrays.toString(firstLabels));
    }
}
