package org.dpdl4j.privacy.noise;

import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.security.GeneralSecurityException;

/**
 * Random 64-bit words from a stream cipher's key stream (the encryption of zeros). Given the same
 * 256-bit key and stream id, two parties obtain the same words; without the key they are
 * indistinguishable from random. The stream id goes into the nonce / initial counter block, so one key
 * serves many independent streams (for example one per training round) with no reuse of key stream.
 */
final class KeyStream {
    private static final int CHUNK_BYTES = 1 << 14;

    private final Cipher cipher;
    private final byte[] zeros = new byte[CHUNK_BYTES];
    private final byte[] block = new byte[CHUNK_BYTES];
    /** The block as little-endian 64-bit words: one bulk copy per chunk instead of a bounds-checked read per word. */
    private final LongBuffer words = ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();

    KeyStream(StreamCipher algorithm, byte[] key, long streamId) {
        if (key.length != 32) {
            throw new IllegalArgumentException("the stream cipher needs a 32-byte key, got " + key.length + " bytes");
        }
        try {
            if (algorithm == StreamCipher.CHACHA20) {
                byte[] nonce = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putInt(0).putLong(streamId).array();
                cipher = Cipher.getInstance("ChaCha20");
                cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "ChaCha20"), new ChaCha20ParameterSpec(nonce, 0));
            } else {
                // Counter block = stream id (high 64 bits) || block counter (low 64 bits, from 0).
                byte[] iv = ByteBuffer.allocate(16).putLong(streamId).putLong(0L).array();
                cipher = Cipher.getInstance("AES/CTR/NoPadding");
                cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK cannot run " + algorithm + ": " + e.getMessage(), e);
        }
    }

    /** Fills {@code out[0, count)} with random 64-bit words. */
    void nextLongs(long[] out, int count) {
        int done = 0;
        while (done < count) {
            int n = Math.min(count - done, CHUNK_BYTES / Long.BYTES);
            try {
                cipher.update(zeros, 0, n * Long.BYTES, block, 0);
            } catch (ShortBufferException e) {
                throw new IllegalStateException("key stream buffer too small", e); // cannot happen: sized above
            }
            words.clear();
            words.get(out, done, n);
            done += n;
        }
    }
}
