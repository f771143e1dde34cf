package org.dpdl4j.privacy.noise;

import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.util.Arrays;

/**
 * Uniform doubles from the ChaCha20 key stream (RFC 8439, the JDK's implementation). Given the same
 * 256-bit key and stream id, two parties obtain the same sequence; without the key it is
 * indistinguishable from random. The stream id goes into the 96-bit nonce, so one key can serve many
 * independent streams (for example one per training round) without any reuse of key stream.
 */
final class ChaCha20Stream {
    private static final int CHUNK_BYTES = 1 << 16;
    private static final double TWO_POW_MINUS_53 = 0x1.0p-53;

    private final Cipher cipher;
    private final byte[] zeros = new byte[CHUNK_BYTES];
    private final byte[] keyStream = new byte[CHUNK_BYTES];
    private final ByteBuffer keyStreamView = ByteBuffer.wrap(keyStream).order(ByteOrder.LITTLE_ENDIAN);

    ChaCha20Stream(byte[] key, long streamId) {
        if (key.length != 32) {
            throw new IllegalArgumentException("ChaCha20 needs a 32-byte key, got " + key.length + " bytes");
        }
        byte[] nonce = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putInt(0).putLong(streamId).array();
        try {
            cipher = Cipher.getInstance("ChaCha20");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "ChaCha20"), new ChaCha20ParameterSpec(nonce, 0));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK does not provide ChaCha20 (needs Java 11 or later)", e);
        } finally {
            Arrays.fill(nonce, (byte) 0);
        }
    }

    /**
     * Fills {@code out[from, from+count)} with uniforms on the grid {1, 2, ..., 2^53} * 2^-53, i.e. in
     * (0, 1] with all 53 bits of a double's mantissa random (never 0, so that log(u) is finite).
     */
    void nextUniforms(double[] out, int from, int count) {
        int done = 0;
        while (done < count) {
            int n = Math.min(count - done, CHUNK_BYTES / Long.BYTES);
            int bytes = n * Long.BYTES;
            try {
                cipher.update(zeros, 0, bytes, keyStream, 0);
            } catch (ShortBufferException e) {
                throw new IllegalStateException("key stream buffer too small", e); // cannot happen: sized above
            }
            keyStreamView.clear();
            for (int i = 0; i < n; i++) {
                long bits = keyStreamView.getLong();
                out[from + done + i] = ((bits >>> 11) + 1) * TWO_POW_MINUS_53;
            }
            done += n;
        }
    }
}
