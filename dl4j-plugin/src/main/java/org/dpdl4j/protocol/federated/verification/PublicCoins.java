package org.dpdl4j.protocol.federated.verification;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The public coins of {@link BinomialNoise}, expanded with SHA-256 from a jointly generated seed (a randomness
 * beacon's output, or the XOR of seeds the parties committed to and then revealed) for one party, round and
 * coordinate. The seed must be fixed only after every party has published its noise bits: a party that knows the
 * coins before it commits can choose its bits to cancel them.
 */
public final class PublicCoins {
    private PublicCoins() {
    }

    /** N coins for {@code party}'s coordinate {@code coordinate} in {@code round}, from {@code seed}. */
    public static boolean[] draw(byte[] seed, long round, int party, int coordinate, int trials) {
        if (seed == null || seed.length < 16) {
            throw new IllegalArgumentException("public coins need a jointly generated seed of at least 16 bytes");
        }
        boolean[] coins = new boolean[trials];
        try {
            for (int block = 0; block * 256 < trials; block++) {
                MessageDigest digest = MessageDigest.getInstance("SHA-256");
                digest.update((Transcript.PROTOCOL + "/public-coins").getBytes(StandardCharsets.UTF_8));
                digest.update(ByteBuffer.allocate(Integer.BYTES).putInt(seed.length).array());
                digest.update(seed);
                digest.update(ByteBuffer.allocate(Long.BYTES + 3 * Integer.BYTES).putLong(round).putInt(party).putInt(coordinate)
                        .putInt(block).array());
                byte[] bytes = digest.digest();
                for (int j = block * 256; j < Math.min(trials, (block + 1) * 256); j++) {
                    int bit = j - block * 256;
                    coins[j] = ((bytes[bit >> 3] >> (bit & 7)) & 1) == 1;
                }
            }
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK offers no SHA-256", e);
        }
        return coins;
    }
}
