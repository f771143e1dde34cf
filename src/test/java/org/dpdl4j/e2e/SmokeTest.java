package org.dpdl4j.e2e;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;
import static org.junit.jupiter.api.Assertions.assertEquals;

class SmokeTest {
    @Test
    void nd4jWorks() {
        assertEquals(6.0, Nd4j.create(new double[]{1, 2, 3}).sumNumber().doubleValue(), 0.0);
    }
}
