package org.dpdl4j.protocol.federated.verification;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the verifier needs to check that every party's eta is {@link BinomialNoise} from its committed bits and the
 * public coins: the rule, the coins' seed, and each party's {@link NoiseBits} per coordinate. Without it
 * ({@link #none()}) eta is only committed, not checked.
 */
public final class NoiseEvidence {
    private static final NoiseEvidence NONE = new NoiseEvidence(null, null, Map.of());

    private final BinomialNoise rule;
    private final byte[] coinSeed;
    private final Map<Integer, List<NoiseBits>> bitsByParty;

    /**
     * @param rule        the noise every party must draw
     * @param coinSeed    the jointly generated seed of the public coins, fixed after the bits were published
     * @param bitsByParty each party's noise bits, one entry per coordinate
     */
    public NoiseEvidence(BinomialNoise rule, byte[] coinSeed, Map<Integer, List<NoiseBits>> bitsByParty) {
        this.rule = rule;
        this.coinSeed = coinSeed == null ? null : coinSeed.clone();
        this.bitsByParty = Map.copyOf(Objects.requireNonNull(bitsByParty, "bitsByParty"));
    }

    /** No noise check. */
    public static NoiseEvidence none() {
        return NONE;
    }

    boolean required() {
        return rule != null;
    }

    /** Why party k's eta at {@code coordinate} fails the check, or null when it passes. */
    String problem(PedersenGroup group, long round, int party, int coordinate, CoordinateContribution c) {
        List<NoiseBits> bits = bitsByParty.get(party);
        if (bits == null || bits.size() <= coordinate) {
            return "coordinate " + coordinate + ": no noise bits published";
        }
        boolean[] coins = PublicCoins.draw(coinSeed, round, party, coordinate, rule.trials());
        return rule.verify(group, bits.get(coordinate), coins, c.noiseCommitment(), round, party, coordinate) ? null
                : "coordinate " + coordinate + ": the noise commitment is not the one the proven bits and the public coins make";
    }
}
