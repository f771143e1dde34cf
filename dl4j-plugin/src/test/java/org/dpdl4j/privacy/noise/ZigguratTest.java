package org.dpdl4j.privacy.noise;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

class ZigguratTest {

    @Test
    void bulkFillDrawsExactlyWhatOneDrawAtATimeDraws() {
        byte[] key = new byte[32];
        key[0] = 42;
        Ziggurat single = new Ziggurat(new KeyStream(StreamCipher.AES_256_CTR, key, 3));
        Ziggurat bulk = new Ziggurat(new KeyStream(StreamCipher.AES_256_CTR, key, 3));
        int n = 50_000;   // several word buffers, with rejections and tail draws among them
        double[] expected = new double[n];
        for (int i = 0; i < n; i++) {
            expected[i] = single.next();
        }
        double[] got = new double[n];
        int[] blocks = {1, 7, 4096, 5000, 123, 40_773};   // uneven blocks, across buffer refills
        int at = 0;
        for (int b : blocks) {
            bulk.fill(got, at, b);
            at += b;
        }
        assertArrayEquals(expected, got, 0.0);
        assertArrayEquals(new double[]{single.next()}, new double[]{bulk.next()}, 0.0, "both streams end at the same word");
    }
}
