package org.dpdl4j.protocol.federated.verification;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fixed-point encoding: round trips, its resolution, the scalars of negative values, clear errors outside the range. */
class GopaVerificationFixedPointTest {
    private static final PedersenGroup GROUP = PedersenGroup.standard();

    @Test
    void valuesOnTheGridRoundTripExactly() {
        for (double x : new double[] {0, 1, -1, 0.5, 1.0 / 65536, -3.25, 0x1p37, -0x1p37 + 1.0 / 65536}) {
            assertEquals(x, FixedPoint.decode(FixedPoint.encode(x)), 0.0, "x = " + x);
        }
    }

    @Test
    void otherValuesRoundToTheNearestMultipleOfTheResolution() {
        Random random = new Random(3);
        for (int t = 0; t < 10_000; t++) {
            double x = (random.nextDouble() - 0.5) * 2e6;
            double back = FixedPoint.decode(FixedPoint.encode(x));
            assertTrue(Math.abs(back - x) <= 0x1p-17 * (1 + 1e-9), x + " came back as " + back);
        }
    }

    @Test
    void theRangeEndsAreAcceptedAndBeyondThemIsRefusedWithTheRange() {
        assertEquals(1L << 56, FixedPoint.encode(0x1p40));
        assertEquals(-(1L << 56), FixedPoint.encode(-0x1p40));
        IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class, () -> FixedPoint.encode(0x1p40 * 1.0001));
        assertTrue(tooBig.getMessage().contains("[-2^40, 2^40]") && tooBig.getMessage().contains("clip"), tooBig.getMessage());
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FixedPoint.encode(bad));
            assertTrue(e.getMessage().contains("finite"), e.getMessage());
        }
    }

    @Test
    void negativeValuesAreTheirNegationModQAndSumsCommuteWithTheEncoding() {
        assertEquals(GROUP.order().subtract(BigInteger.valueOf(65536)), FixedPoint.scalarOf(-1.0, GROUP));
        BigInteger sum = FixedPoint.scalarOf(2.5, GROUP).add(FixedPoint.scalarOf(-4.0, GROUP)).mod(GROUP.order());
        assertEquals(FixedPoint.scalarOf(-1.5, GROUP), sum);
    }
}
