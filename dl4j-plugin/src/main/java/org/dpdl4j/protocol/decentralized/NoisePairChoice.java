package org.dpdl4j.protocol.decentralized;

/**
 * Which of the calibrated Decor noise pairs to use (spec 3.5.3): the pair is not unique; the reference
 * scripts use the one with the smallest private noise.
 */
public enum NoisePairChoice {
    SMALLEST_SIGMA_CDP,
    MIDDLE,
    LARGEST_SIGMA_CDP;

    /** Parses smallest, middle or largest. */
    public static NoisePairChoice parse(String s) {
        return switch (s) {
            case "smallest" -> SMALLEST_SIGMA_CDP;
            case "middle" -> MIDDLE;
            case "largest" -> LARGEST_SIGMA_CDP;
            default -> throw new IllegalArgumentException("unknown noise pair '" + s + "'; use smallest, middle or largest");
        };
    }
}
