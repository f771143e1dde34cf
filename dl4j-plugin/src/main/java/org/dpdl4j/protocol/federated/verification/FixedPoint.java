package org.dpdl4j.protocol.federated.verification;

import java.math.BigInteger;
import java.util.Locale;

/**
 * Fixed-point encoding of real values into integers, and of those integers into the scalars Z_q that commitments
 * take: a value x becomes {@code round(x * 2^16)}, so the resolution is 2^-16 (about 1.5e-5), and every committed
 * value (parameter, pairwise term, private noise) must lie within {@code [-2^40, 2^40]}. Negative integers are taken
 * mod q, which the 2^56 bound keeps far from wrapping around: a sum of fewer than 2^190 such terms is exact.
 *
 * <p>The published value of a party is the exact integer sum of its encoded parts, so the verifier's check is exact;
 * decoding it back to a double is exact too while it stays within 2^53 units (|x| &lt;= 2^37).
 */
public final class FixedPoint {
    /** Fractional bits: the resolution is 2^-16. */
    public static final int FRACTION_BITS = 16;
    /** One in fixed point: 2^16. */
    public static final long ONE = 1L << FRACTION_BITS;
    /** The largest magnitude of a committed real value, 2^40. */
    public static final double MAX_MAGNITUDE = 0x1p40;

    private FixedPoint() {
    }

    /**
     * The integer {@code round(x * 2^16)}.
     *
     * @throws IllegalArgumentException if x is not finite or beyond {@link #MAX_MAGNITUDE}
     */
    public static long encode(double x) {
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException("cannot commit to " + x + ": only finite values have a fixed-point encoding;"
                    + " check the model's parameters and the noise for NaN or infinity");
        }
        if (Math.abs(x) > MAX_MAGNITUDE) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "cannot commit to %.6g: it is outside the"
                    + " fixed-point range [-2^40, 2^40] = [-%.6g, %.6g]; clip the parameters or lower the noise", x, MAX_MAGNITUDE,
                    MAX_MAGNITUDE));
        }
        return Math.round(x * ONE);
    }

    /** The real value {@code n / 2^16} of an encoded integer (exact while |n| &lt;= 2^53). */
    public static double decode(long n) {
        return n / (double) ONE;
    }

    /** The scalar in Z_q that a commitment to the encoded integer n commits to: n mod q. */
    public static BigInteger toScalar(long n, PedersenGroup group) {
        return group.reduce(BigInteger.valueOf(n));
    }

    /** {@link #encode} then {@link #toScalar}. */
    public static BigInteger scalarOf(double x, PedersenGroup group) {
        return toScalar(encode(x), group);
    }
}
