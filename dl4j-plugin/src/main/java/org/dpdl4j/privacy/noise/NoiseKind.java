package org.dpdl4j.privacy.noise;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;
import org.dpdl4j.graph.Graph;

/**
 * Where a run's noise and sampling randomness come from. Protocols take a kind, not a name, and ask it for their
 * sources, so the choice is made (and checked) in one place.
 */
public enum NoiseKind {
    /**
     * Cryptographically secure: keys from {@link SecureRandom}, AES-256-CTR key streams, X25519 pairwise secrets;
     * nobody (not even the same program with the same seed) can regenerate the noise. The default.
     */
    SECURE("secure", "AES-256-CTR keyed from SecureRandom"),
    /** Reproducible from the run's seed, for experiments and tests. NOT secure: the seed removes the noise. */
    SEEDED("seeded", "reproducible from the seed, NOT secure"),
    /**
     * Reproducible from the run's seed by Philox counters ({@link PhiloxNoiseStreams}): what lets the decentralized
     * protocols draw every node's and every edge's noise on the GPU with the models, with the values a CPU run draws.
     * Other numbers than {@link #SEEDED}'s. NOT secure: the seed removes the noise.
     */
    PHILOX("philox", "reproducible from the seed by Philox counters, drawn on the GPU with the models, NOT secure");

    private final String cliName;
    private final String description;

    NoiseKind(String cliName, String description) {
        this.cliName = cliName;
        this.description = description;
    }

    /**
     * The kind named {@code secure}, {@code seeded} or {@code philox}.
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static NoiseKind parse(String name) {
        for (NoiseKind k : values()) {
            if (k.cliName.equals(name == null ? null : name.trim().toLowerCase(Locale.ROOT))) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown noise source '" + name + "'; use "
                + Arrays.stream(values()).map(k -> k.cliName + " (" + k.description + ")").collect(Collectors.joining(" or ")));
    }

    /** The name on the command line and in run files. */
    public String cliName() {
        return cliName;
    }

    /** One line for statements. */
    public String description() {
        return description;
    }

    /** Whether nobody can regenerate the noise (the condition of every guarantee). */
    public boolean isSecure() {
        return this == SECURE;
    }

    /**
     * The streams of a protocol whose parties are the vertices of {@code graph} and whose pairwise secrets are its
     * edges (a graph without edges for protocols without pairwise noise).
     *
     * @param seed the seed of seeded streams (ignored by secure ones)
     */
    public NoiseStreams streams(Graph graph, long seed) {
        return switch (this) {
            case SECURE -> new SecureNoiseStreams(graph);
            case SEEDED -> new SeededNoiseStreams(seed);
            case PHILOX -> new PhiloxNoiseStreams(seed);
        };
    }

    /** The streams of {@code parties} parties without pairwise secrets. */
    public NoiseStreams streams(int parties, long seed) {
        return streams(Graph.of(parties), seed);
    }

    /**
     * One party's sequential noise source: a fresh secure source drawn one request ahead on a spare core, or the
     * seeded stream of {@code key}.
     */
    public NoiseSource source(NoiseKey key) {
        return switch (this) {
            case SECURE -> new LookAheadNoiseSource();
            case SEEDED -> SeededNoiseSource.forKey(key);
            case PHILOX -> new PhiloxNoiseSource(key.seed(), 0);
        };
    }

    /** Sampling randomness: {@link SecureRandom}, or a generator seeded from {@code key}. */
    public RandomGenerator sampling(NoiseKey key) {
        return this == SECURE ? new SecureRandom() : new SplittableRandom(key.seed());
    }

    @Override
    public String toString() {
        return cliName;
    }
}
