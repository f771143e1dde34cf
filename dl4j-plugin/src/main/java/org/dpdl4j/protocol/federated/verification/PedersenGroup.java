package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.math.ec.ECAlgorithms;
import org.bouncycastle.math.ec.ECCurve;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.util.BigIntegers;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Objects;

/**
 * The prime-order group of verifiable GOPA's Pedersen commitments: the curve secp256k1 (BouncyCastle's
 * {@link CustomNamedCurves}, cofactor 1, order q), its standard generator G, and a second generator H.
 *
 * <p>A commitment to a scalar v with blinding r is {@code C = vG + rH}: perfectly hiding, and binding as long as
 * nobody knows log_G H. That is why H is not chosen but derived: {@link #SECOND_GENERATOR_SEED} is hashed with a
 * counter (SHA-256, try-and-increment) until the digest is the x-coordinate of a curve point, which BouncyCastle's
 * point decompression decides. Anyone can recompute H from the public seed, and finding its discrete logarithm is as
 * hard as the discrete logarithm on the curve. Commitments are additively homomorphic:
 * {@code Com(a, r) + Com(b, s) = Com(a + b, r + s)}.
 *
 * <p>All group and field arithmetic is BouncyCastle's ({@link ECPoint}) and the JDK's ({@link BigInteger}); none of
 * it is constant-time, so a prover's timing may leak its secrets to someone who can time it closely. The group is
 * immutable and thread-safe.
 */
public final class PedersenGroup {
    /** The curve's name, also hashed into every Fiat-Shamir challenge. */
    public static final String CURVE_NAME = "secp256k1";
    /** The public seed H is derived from. */
    public static final String SECOND_GENERATOR_SEED = "dpdl4j/verifiable-gopa/v1/pedersen-H";
    /** Compressed encoding of a point: a sign byte and the 32-byte x-coordinate. */
    public static final int POINT_BYTES = 33;
    /** Fixed-length encoding of a scalar modulo q. */
    public static final int SCALAR_BYTES = 32;

    private static final PedersenGroup STANDARD = new PedersenGroup();

    private final ECCurve curve;
    private final ECPoint g;
    private final ECPoint h;
    private final BigInteger order;
    private final ECDomainParameters domain;

    private PedersenGroup() {
        X9ECParameters params = CustomNamedCurves.getByName(CURVE_NAME);
        this.domain = new ECDomainParameters(params);
        this.curve = params.getCurve();
        this.g = params.getG().normalize();
        this.order = params.getN();
        this.h = hashToCurve(SECOND_GENERATOR_SEED);
    }

    /** The one group every party and verifier uses. */
    public static PedersenGroup standard() {
        return STANDARD;
    }

    /** Try-and-increment: the first counter whose digest decompresses to a point (about two tries on average). */
    private ECPoint hashToCurve(String seed) {
        BigInteger fieldSize = curve.getField().getCharacteristic();
        for (int counter = 0; counter < 1_000; counter++) {
            byte[] digest = sha256(seed.getBytes(StandardCharsets.UTF_8), BigInteger.valueOf(counter).toByteArray());
            if (new BigInteger(1, digest).compareTo(fieldSize) >= 0) {
                continue;
            }
            byte[] compressed = new byte[POINT_BYTES];
            compressed[0] = 0x02;
            System.arraycopy(digest, 0, compressed, 1, SCALAR_BYTES);
            try {
                ECPoint candidate = curve.decodePoint(compressed).multiply(curve.getCofactor()).normalize();
                if (!candidate.isInfinity() && candidate.isValid()) {
                    return candidate;
                }
            } catch (IllegalArgumentException notOnCurve) {
                // this x has no point: try the next counter
            }
        }
        throw new IllegalStateException("no curve point found for seed " + seed + " in 1000 tries (expected about 2)");
    }

    private static byte[] sha256(byte[]... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (byte[] part : parts) {
                digest.update(part);
            }
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK offers no SHA-256", e);
        }
    }

    /** {@code vG + rH}, the commitment to v with blinding r. */
    public ECPoint commit(BigInteger value, BigInteger blinding) {
        return ECAlgorithms.sumOfTwoMultiplies(g, reduce(value), h, reduce(blinding)).normalize();
    }

    /** {@code aP + bQ} in one pass. */
    public ECPoint sumOfTwoMultiplies(ECPoint p, BigInteger a, ECPoint q, BigInteger b) {
        return ECAlgorithms.sumOfTwoMultiplies(p, reduce(a), q, reduce(b)).normalize();
    }

    /** A uniform scalar in [0, q), for blindings and proof nonces. */
    public BigInteger randomScalar(SecureRandom random) {
        Objects.requireNonNull(random, "random");
        return BigIntegers.createRandomInRange(BigInteger.ZERO, order.subtract(BigInteger.ONE), random);
    }

    /** x mod q, in [0, q). */
    public BigInteger reduce(BigInteger x) {
        return x.mod(order);
    }

    /** The fixed-length big-endian encoding of a scalar, as hashed into challenges. */
    public byte[] scalarBytes(BigInteger x) {
        return BigIntegers.asUnsignedByteArray(SCALAR_BYTES, reduce(x));
    }

    /** The compressed encoding of a point; the point at infinity, which no honest statement contains, is one zero byte. */
    public byte[] pointBytes(ECPoint p) {
        return p.isInfinity() ? new byte[] {0} : p.getEncoded(true);
    }

    /** Whether {@code p} is a point of this group other than the identity (what a published commitment must be). */
    public boolean isGroupElement(ECPoint p) {
        return p != null && p.getCurve().equals(curve) && !p.isInfinity() && p.isValid();
    }

    /** The point at infinity, the commitment to 0 with blinding 0. */
    public ECPoint identity() {
        return curve.getInfinity();
    }

    public ECPoint g() {
        return g;
    }

    public ECPoint h() {
        return h;
    }

    /** The curve with G as BouncyCastle's signers take it (edge agreements are ECDSA-signed on the same curve). */
    ECDomainParameters domain() {
        return domain;
    }

    /** The prime order q of the group. */
    public BigInteger order() {
        return order;
    }

    @Override
    public String toString() {
        return "PedersenGroup[" + CURVE_NAME + ", H from \"" + SECOND_GENERATOR_SEED + "\"]";
    }
}
