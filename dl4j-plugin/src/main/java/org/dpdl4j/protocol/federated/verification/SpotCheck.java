package org.dpdl4j.protocol.federated.verification;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The public challenge of a spot-checked round: which k of the p coordinates every party proves, drawn by Fiat-Shamir
 * from a SHA-256 hash of everything all parties published in the commitment phase ({@link PartyCommitments}, a party
 * that published nothing marked as such), the round, p and k, under its own domain label. Nobody can know the
 * coordinates before every commitment is fixed, and anyone can recompute them.
 *
 * <p>A party that lies on j of the p coordinates escapes a round's check with probability
 * {@code C(p - j, k) / C(p, k) <= (1 - k/p)^j}; lying on one coordinate, {@code 1 - k/p}.
 */
public final class SpotCheck {
    /** The label every challenge hashes first, apart from the proofs' transcripts. */
    public static final String DOMAIN = Transcript.PROTOCOL + "/spot-check";

    private SpotCheck() {
    }

    /**
     * The coordinates to prove, in increasing order: all p when {@code count >= p}.
     *
     * @param published one entry per party, in party order; null for a party that published nothing
     * @param count     k &gt;= 1
     */
    public static int[] coordinates(PedersenGroup group, long round, List<PartyCommitments> published, int dimension, int count) {
        if (count < 1 || dimension < 1) {
            throw new IllegalArgumentException("a spot check proves k >= 1 of p >= 1 coordinates, got k = " + count + ", p = " + dimension);
        }
        if (count >= dimension) {
            return IntStream.range(0, dimension).toArray();
        }
        byte[] seed = seed(group, round, published, dimension, count);
        int[] order = IntStream.range(0, dimension).toArray();
        for (int s = 0; s < count; s++) {
            // partial Fisher-Yates from a hash counter; the modulo bias of a 63-bit draw over p < 2^31 is below 2^-32
            long draw = ByteBuffer.wrap(sha256(seed, ByteBuffer.allocate(Integer.BYTES).putInt(s).array())).getLong() >>> 1;
            int pick = s + (int) (draw % (dimension - s));
            int t = order[s];
            order[s] = order[pick];
            order[pick] = t;
        }
        int[] chosen = Arrays.copyOf(order, count);
        Arrays.sort(chosen);
        return chosen;
    }

    private static byte[] seed(PedersenGroup group, long round, List<PartyCommitments> published, int dimension, int count) {
        MessageDigest digest = newDigest();
        digest.update(DOMAIN.getBytes(StandardCharsets.UTF_8));
        digest.update(ByteBuffer.allocate(Long.BYTES + 3 * Integer.BYTES).putLong(round).putInt(dimension).putInt(count)
                .putInt(published.size()).array());
        for (PartyCommitments c : published) {
            digest.update((byte) (c == null ? 0 : 1));
            if (c != null) {
                c.hashInto(digest, group);
            }
        }
        return digest.digest();
    }

    private static byte[] sha256(byte[]... parts) {
        MessageDigest digest = newDigest();
        for (byte[] part : parts) {
            digest.update(part);
        }
        return digest.digest();
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK offers no SHA-256", e);
        }
    }
}
