package org.dpdl4j.cli.train;

import picocli.CommandLine.Option;

/** Privacy options shared by the private algorithms. */
public final class PrivacyOptions {
    @Option(names = "--privacy", defaultValue = "none", paramLabel = "MODE",
            description = "Centralised training only: none (default) or central (DP-SGD).")
    String mode;

    @Option(names = "--epsilon", paramLabel = "EPS", description = "Target epsilon; the noise is calibrated to reach it at the end of training.")
    Double epsilon;

    @Option(names = "--delta", defaultValue = "1e-5", paramLabel = "DELTA", description = "delta of every epsilon; default ${DEFAULT-VALUE}.")
    double delta;

    @Option(names = "--clip", paramLabel = "C", description = "Clipping norm (per example for DP-SGD).")
    Double clipNorm;

    @Option(names = "--noise-multiplier", paramLabel = "Z", description = "DP-SGD noise multiplier, instead of --epsilon.")
    Double noiseMultiplier;

    @Option(names = "--sampling", defaultValue = "poisson", paramLabel = "S",
            description = "Batch sampling of private training: poisson (default) or fixed (uniform subsets of exactly --batch-size).")
    String sampling;

    @Option(names = "--noise", defaultValue = "secure", paramLabel = "SOURCE",
            description = "Noise source: secure (AES-256-CTR keyed from SecureRandom, default) or seeded (reproducible, NOT secure).")
    String noise;

    Privacy resolve() {
        return new Privacy(mode, epsilon, delta, clipNorm, noiseMultiplier, sampling, noise);
    }

    /** Resolved privacy settings ({@code null} where not given). */
    public record Privacy(String mode, Double epsilon, double delta, Double clipNorm, Double noiseMultiplier, String sampling,
                          String noise) {
        /** Whether the seeded (insecure) noise source was asked for. */
        public boolean seededNoise() {
            return "seeded".equals(noise);
        }
    }
}
