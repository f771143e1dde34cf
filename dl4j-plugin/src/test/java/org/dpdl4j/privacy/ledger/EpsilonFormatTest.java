package org.dpdl4j.privacy.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class EpsilonFormatTest {
    @Test
    void epsilonsAreRoundedUpExceptFloatingPointNoiseAboveAShownValue() {
        assertEquals("1.0001", EpsilonFormat.upward(1.00004), "to nearest would read 1.0000, below the bound");
        assertEquals("1.0000", EpsilonFormat.upward(1.0));
        assertEquals("4.0000", EpsilonFormat.upward(4.000000000000002), "a calibrated run's float excess");
        assertEquals("4.0001", EpsilonFormat.upward(4.00000001));
        assertEquals("3.9999", EpsilonFormat.upward(3.99989));
        assertEquals("0.0001", EpsilonFormat.upward(1e-9));
        assertEquals("0.0001", EpsilonFormat.upward(1e-13), "a tiny epsilon is not within 1e-12 of 0 relatively");
        assertEquals("0.0000", EpsilonFormat.upward(0.0));
        assertEquals("2.60", EpsilonFormat.upward(2.5970, 2));
        assertEquals("Infinity", EpsilonFormat.upward(Double.POSITIVE_INFINITY));
    }

    @Test
    void lowerBoundsAreRoundedDown() {
        assertEquals("0.1234", EpsilonFormat.downward(0.12346, 4), "to nearest would read 0.1235, above what was proven");
        assertEquals("0.8305", EpsilonFormat.downward(0.8305, 4), "the double nearest 0.8305 lies just below it: on the grid");
        assertEquals("0.000", EpsilonFormat.downward(0.0, 3));
        assertEquals("1.999999", EpsilonFormat.downward(1.9999999, 6));
        assertEquals("NaN", EpsilonFormat.downward(Double.NaN, 4));
    }

    @Test
    void boundsToSignificantDigitsAreRoundedUpToo() {
        assertEquals("1.81e-05", EpsilonFormat.upwardSignificant(1.8000001e-5, 3), "to nearest would read 1.80e-05");
        assertEquals("1.80e-05", EpsilonFormat.upwardSignificant(18 * 1e-6, 3), "18 releases of 1e-6: on the grid");
        assertEquals("5.80e-05", EpsilonFormat.upwardSignificant(58 * 1e-6, 3));
        assertEquals("0.00674", EpsilonFormat.upwardSignificant(Math.exp(-5), 3), "e^-5 = 0.0067379...");
        assertEquals("1.00", EpsilonFormat.upwardSignificant(0.9999, 3));
        assertEquals("0.00", EpsilonFormat.upwardSignificant(0.0, 3));
        assertEquals("NaN", EpsilonFormat.upwardSignificant(Double.NaN, 3));
    }
}
