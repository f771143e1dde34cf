package org.dpdl4j.privacy.noise;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * The identity of one random stream: (master seed, purpose, node or edge id, round). Every draw in a
 * run is keyed this way, so runs are reproducible, streams with different keys are independent, and no
 * draw is reused across rounds. Keys are hashed with SHA-256 into a seed or a cipher key.
 *
 * @param masterSeed the run's seed
 * @param purpose    what the stream is for, e.g. "private-noise", "pairwise-noise", "sampling"
 * @param id         node id, edge index, or 0 when there is only one stream of this purpose
 * @param round      training round (iteration), or 0 for streams that span the run
 */
public record NoiseKey(long masterSeed, String purpose, long id, long round) {
    public NoiseKey {
        Objects.requireNonNull(purpose, "purpose");
        if (purpose.isBlank()) {
            throw new IllegalArgumentException("a noise key needs a non-blank purpose");
        }
    }

    /** 32 bytes: SHA-256 of the key's fields; usable as a ChaCha20 key. */
    public byte[] digest() {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] p = purpose.getBytes(StandardCharsets.UTF_8);
            sha.update(ByteBuffer.allocate(8 * 3 + 4 + p.length)
                    .putLong(masterSeed).putInt(p.length).put(p).putLong(id).putLong(round).array());
            return sha.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    /** A 64-bit seed derived from {@link #digest()}. */
    public long seed() {
        return ByteBuffer.wrap(digest()).getLong();
    }

    /** The same key for another round. */
    public NoiseKey atRound(long newRound) {
        return new NoiseKey(masterSeed, purpose, id, newRound);
    }
}
