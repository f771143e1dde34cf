package org.dpdl4j.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** A release and an observer declaration refuse what an attack could not use, saying what to give instead. */
class ObservedReleaseTest {
    private static final INDArray PARAMS = Nd4j.zeros(4);
    private static final double NO_CLIP = Double.POSITIVE_INFINITY;

    private static String refusal(Runnable make) {
        return assertThrows(IllegalArgumentException.class, make::run).getMessage();
    }

    @Test
    void aReleaseKeepsItsRowsAndRefusesWhatCannotBeAttacked() {
        int[] rows = {7};
        ObservedRelease r = new ObservedRelease(3, PARAMS, Nd4j.ones(4), 0.1, rows, 0.0, NO_CLIP);
        rows[0] = 8;
        assertArrayEquals(new int[] {7}, r.rows(), "a copy of the rows");
        assertFalse(r.isClipped());
        assertTrue(new ObservedRelease(3, PARAMS, Nd4j.ones(4), 0.1, rows, 0.5, 1.0).isClipped());

        assertTrue(refusal(() -> new ObservedRelease(0, PARAMS, Nd4j.ones(3), 0.1, rows, 0, NO_CLIP))
                .contains("laid out like the parameters"));
        assertTrue(refusal(() -> new ObservedRelease(0, PARAMS, Nd4j.ones(4), -0.1, rows, 0, NO_CLIP))
                .contains("theta - theta+"));
        assertTrue(refusal(() -> new ObservedRelease(0, PARAMS, Nd4j.ones(4), 0.1, new int[0], 0, NO_CLIP))
                .contains("rows of the examples"));
        assertTrue(refusal(() -> new ObservedRelease(0, PARAMS, Nd4j.ones(4), 0.1, rows, Double.NaN, NO_CLIP))
                .contains("noise std"));
        assertTrue(refusal(() -> new ObservedRelease(0, PARAMS, Nd4j.ones(4), 0.1, rows, 0, 0))
                .contains("+Infinity when nothing is clipped"));
        assertTrue(refusal(() -> new ObservedRelease(-1, PARAMS, Nd4j.ones(4), 0.1, rows, 0, NO_CLIP))
                .contains("counts from 0"));
    }

    @Test
    void anObserverSaysWhatItSeesAndKnows() {
        assertTrue(refusal(() -> new ObserverDeclaration(" ", "x", "y")).contains("needs a name"));
        assertTrue(refusal(() -> new ObserverDeclaration("server", "", "y")).contains("what it sees"));
    }
}
