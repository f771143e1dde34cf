package org.dpdl4j.privacy.noise;

import org.nd4j.linalg.api.ndarray.INDArray;

import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Gaussian noise from the ChaCha20 stream cipher: the secure source, and the default for every
 * private mechanism in dpdl4j.
 *
 * <ul>
 *   <li>{@link #fromSecureRandom()} keys the cipher from the operating system's entropy
 *       ({@link SecureRandom}); nobody, including the user, can reproduce the noise.</li>
 *   <li>{@link #withKey(byte[], long)} keys it with a secret shared by two parties (the per-edge
 *       secrets of Decor and GOPA), so both derive identical noise and nobody else can; the stream id
 *       (for example the round) selects an independent stream.</li>
 * </ul>
 * Normals are produced in bulk (see {@link StandardNormalBlocks} for the floating-point mitigation).
 */
public final class ChaCha20NoiseSource implements NoiseSource {
    private final ChaCha20Stream stream;
    private final String description;
    private double[] uniforms = new double[0];

    private ChaCha20NoiseSource(byte[] key, long streamId, String description) {
        this.stream = new ChaCha20Stream(key, streamId);
        this.description = description;
    }

    /** A source keyed from {@link SecureRandom}: unpredictable and irreproducible. */
    public static ChaCha20NoiseSource fromSecureRandom() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        try {
            return new ChaCha20NoiseSource(key, 0L, "ChaCha20 (secure, key from SecureRandom)");
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /**
     * A source keyed by a 32-byte secret; parties holding the same secret and stream id draw the same
     * noise. The caller keeps the secret; this object does not retain the array.
     */
    public static ChaCha20NoiseSource withKey(byte[] key, long streamId) {
        return new ChaCha20NoiseSource(key, streamId, "ChaCha20 (secure, shared key, stream " + streamId + ")");
    }

    /** {@code n} standard normals, DOUBLE, rank 1. */
    public INDArray standardNormals(long n) {
        int needed = StandardNormalBlocks.uniformsNeeded(n);
        if (uniforms.length != needed) {
            uniforms = new double[needed];
        }
        stream.nextUniforms(uniforms, 0, needed);
        return StandardNormalBlocks.fromUniforms(uniforms, n);
    }

    @Override
    public void addGaussian(INDArray target, double std) {
        if (NoiseChecks.skip(target, std)) {
            return;
        }
        StandardNormalBlocks.addScaled(target, standardNormals(target.length()), std);
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
