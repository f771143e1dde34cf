package org.dpdl4j.protocol.muffliato;

/**
 * How the T gossip steps of Muffliato combine the mixing matrix W: the messages of step t are {@code p_t(W) z}
 * for a polynomial {@code p_t} of degree t with {@code p_t(1) = 1}, so the network average is preserved.
 */
public enum GossipScheme {
    /** {@code p_t(W) = W^t}: the disagreement shrinks by the contraction lambda of W per step. */
    PLAIN("plain"),
    /**
     * {@code p_t(x) = T_t(x / lambda) / T_t(1 / lambda)} with {@code T_t} the Chebyshev polynomial: the disagreement
     * shrinks by {@code 1 / T_t(1 / lambda)}, about {@code (1 - sqrt(2 (1 - lambda)))^t} instead of {@code lambda^t}.
     */
    CHEBYSHEV("chebyshev");

    private final String label;

    GossipScheme(String label) {
        this.label = label;
    }

    /** The option value, e.g. {@code chebyshev}. */
    public String label() {
        return label;
    }

    /** Parses an option value. */
    public static GossipScheme parse(String value) {
        for (GossipScheme s : values()) {
            if (s.label.equalsIgnoreCase(value.trim())) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown gossip scheme '" + value + "': use plain or chebyshev");
    }
}
