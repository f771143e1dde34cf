package org.dpdl4j.privacy.noise;

import org.nd4j.linalg.api.ndarray.INDArray;

import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Gaussian noise from a cryptographic stream cipher ({@link StreamCipher}, AES-256-CTR by default): the
 * secure source, and the default of every private mechanism in dpdl4j.
 *
 * <ul>
 *   <li>{@link #fromSecureRandom()} keys the cipher from the operating system's entropy
 *       ({@link SecureRandom}); nobody, the user included, can reproduce the noise.</li>
 *   <li>{@link #withKey(byte[], long)} keys it with a secret shared by two parties (the per-edge
 *       secrets of Decor and GOPA), so both derive identical noise and nobody else can; the stream id
 *       (for example the round) selects an independent stream.</li>
 * </ul>
 * Normals are produced in bulk by {@link GaussianSampler} (ziggurat, with the floating-point mitigation
 * described there). Draws are synchronized: a look-ahead thread and the caller may share one source, and
 * two threads advancing one cipher stream at once could hand out the same key-stream bytes twice.
 */
public final class SecureNoiseSource implements NoiseSource {
    private final GaussianSampler sampler;
    private final String description;

    private SecureNoiseSource(StreamCipher cipher, byte[] key, long streamId, String description) {
        this.sampler = new GaussianSampler(new KeyStream(cipher, key, streamId), true);
        this.description = description;
    }

    /** A source keyed from {@link SecureRandom} with the default cipher: unpredictable and irreproducible. */
    public static SecureNoiseSource fromSecureRandom() {
        return fromSecureRandom(StreamCipher.AES_256_CTR);
    }

    /** A source keyed from {@link SecureRandom} with the given cipher. */
    public static SecureNoiseSource fromSecureRandom(StreamCipher cipher) {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        try {
            return new SecureNoiseSource(cipher, key, 0L, cipher + " (secure, key from SecureRandom)");
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /**
     * A source keyed by a 32-byte secret with the default cipher; parties holding the same secret and
     * stream id draw the same noise. This object does not retain the array.
     */
    public static SecureNoiseSource withKey(byte[] key, long streamId) {
        return withKey(StreamCipher.AES_256_CTR, key, streamId);
    }

    /** As {@link #withKey(byte[], long)} with an explicit cipher. */
    public static SecureNoiseSource withKey(StreamCipher cipher, byte[] key, long streamId) {
        return new SecureNoiseSource(cipher, key, streamId, cipher + " (secure, shared key, stream " + streamId + ")");
    }

    /** {@code n} standard normals, DOUBLE, rank 1. */
    public synchronized INDArray standardNormals(long n) {
        if (n < 0 || n > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("can draw between 0 and 2^31-17 normals at a time, asked for " + n);
        }
        return sampler.standardNormals((int) n);
    }

    @Override
    public synchronized void addGaussian(INDArray target, double std) {
        if (NoiseChecks.skip(target, std)) {
            return;
        }
        sampler.addTo(target, std);
    }

    @Override
    public synchronized void writeGaussian(INDArray target, double std) {
        if (NoiseChecks.skip(target, std)) {
            target.assign(0);
            return;
        }
        sampler.writeTo(target, std);
    }

    @Override
    public boolean isSecure() {
        return true;
    }

    @Override
    public String description() {
        return description;
    }
}
