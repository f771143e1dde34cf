package org.dpdl4j.privacy.noise;

import org.junit.jupiter.api.Test;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class KeyStreamTest {

    @Test
    void aesCtrWordsAreTheEncryptedCounterBlocks() throws Exception {
        byte[] key = new byte[32];
        for (int i = 0; i < 32; i++) {
            key[i] = (byte) (i * 7 + 1);
        }
        long streamId = 0x0102030405060708L;
        long[] words = new long[40];
        new KeyStream(StreamCipher.AES_256_CTR, key, streamId).nextLongs(words, words.length);

        Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
        ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
        long[] expected = new long[40];
        for (int block = 0; block < 20; block++) {
            byte[] counter = ByteBuffer.allocate(16).putLong(streamId).putLong(block).array();
            ByteBuffer enc = ByteBuffer.wrap(ecb.doFinal(counter)).order(ByteOrder.LITTLE_ENDIAN);
            expected[2 * block] = enc.getLong();
            expected[2 * block + 1] = enc.getLong();
        }
        assertArrayEquals(expected, words);
    }

    @Test
    void chunkBoundariesDoNotChangeTheStream() {
        byte[] key = new byte[32];
        key[5] = 9;
        for (StreamCipher c : StreamCipher.values()) {
            long[] whole = new long[5000];
            new KeyStream(c, key, 3).nextLongs(whole, whole.length);
            KeyStream pieces = new KeyStream(c, key, 3);
            long[] a = new long[1234];
            long[] b = new long[5000 - 1234];
            pieces.nextLongs(a, a.length);
            pieces.nextLongs(b, b.length);
            long[] joined = new long[5000];
            System.arraycopy(a, 0, joined, 0, a.length);
            System.arraycopy(b, 0, joined, a.length, b.length);
            assertArrayEquals(whole, joined, c.name());
            long[] other = new long[5000];
            new KeyStream(c, key, 4).nextLongs(other, other.length);
            assertNotEquals(whole[0], other[0]);
        }
    }
}
