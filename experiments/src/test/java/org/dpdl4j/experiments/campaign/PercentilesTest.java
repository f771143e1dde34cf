package org.dpdl4j.experiments.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Medians and nearest-rank quantiles against values worked out by hand. */
class PercentilesTest {

    @Test
    void medianOfOddAndEvenCountsIgnoringNaN() {
        assertEquals(3, Percentiles.median(new double[] {5, 1, 3}));
        assertEquals(2.5, Percentiles.median(new double[] {4, 1, Double.NaN, 3, 2}));
        assertTrue(Double.isNaN(Percentiles.median(new double[] {Double.NaN})));
        assertEquals(Double.POSITIVE_INFINITY, Percentiles.median(new double[] {1, Double.POSITIVE_INFINITY,
                Double.POSITIVE_INFINITY}), "an exact reconstruction is an ordinary order statistic");
    }
}
