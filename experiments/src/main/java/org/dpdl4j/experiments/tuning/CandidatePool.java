package org.dpdl4j.experiments.tuning;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.deeplearning4j.arbiter.optimize.api.Candidate;
import org.deeplearning4j.arbiter.optimize.api.CandidateGenerator;
import org.deeplearning4j.arbiter.optimize.generator.GridSearchCandidateGenerator;
import org.deeplearning4j.arbiter.optimize.generator.RandomSearchGenerator;

/**
 * The configurations a tuning may train, drawn by Arbiter's random or grid search before any data is touched. Private
 * tuning trains configurations drawn uniformly from this pool: the pool is known in advance, so the privacy cost of
 * one candidate is the costliest pool member's, computed before training (a configuration drawn from an unbounded
 * space could cost anything).
 *
 * @param space   the search space
 * @param entries the configurations, in the order Arbiter produced them
 */
public record CandidatePool(SearchSpace space, List<Entry> entries) {
    /** The largest pool: every member is built (not trained) up front to price it. */
    public static final int MAX_SIZE = 10_000;

    /**
     * One configuration.
     *
     * @param index  its place in the pool
     * @param flat   Arbiter's point in [0, 1]^d
     * @param values the option texts it sets
     */
    public record Entry(int index, double[] flat, Map<String, String> values) {
    }

    public CandidatePool {
        entries = List.copyOf(entries);
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("the candidate pool is empty");
        }
    }

    /** {@code size} configurations drawn at random (Arbiter's random search, seeded). */
    public static CandidatePool random(SearchSpace space, int size, long seed) {
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("--pool " + size + ": the pool holds 1 to " + MAX_SIZE + " configurations");
        }
        RandomSearchGenerator generator = new RandomSearchGenerator(space);
        generator.setRngSeed(seed);
        return new CandidatePool(space, draw(generator, size));
    }

    /**
     * Every point of Arbiter's grid: {@code points} values per continuous option (fewer for a short integer range), every
     * value of a choice.
     */
    public static CandidatePool grid(SearchSpace space, int points) {
        if (points < 1) {
            throw new IllegalArgumentException("--grid-points " + points + ": give at least 1 value per continuous option");
        }
        long size = 1;
        for (SearchDimension d : space.dimensions()) {
            size *= switch (d.kind()) {
                case CHOICE -> d.values().size();
                case INTEGER -> Math.min((long) (d.max() - d.min() + 1), points);
                default -> points;
            };
            if (size > MAX_SIZE) {
                throw new IllegalArgumentException("the grid of " + space + " has more than " + MAX_SIZE + " points; lower"
                        + " --grid-points or search at random (--search random)");
            }
        }
        GridSearchCandidateGenerator generator = new GridSearchCandidateGenerator(space, points,
                GridSearchCandidateGenerator.Mode.Sequential, null);
        return new CandidatePool(space, draw(generator, Integer.MAX_VALUE));
    }

    @SuppressWarnings("unchecked")
    private static List<Entry> draw(CandidateGenerator generator, int max) {
        List<Entry> out = new ArrayList<>();
        while (out.size() < max && generator.hasMoreCandidates()) {
            Candidate<?> c = generator.getCandidate();
            if (c.getException() != null) {
                throw new IllegalArgumentException("Arbiter could not make a configuration of the search space: "
                        + c.getException().getMessage(), c.getException());
            }
            out.add(new Entry(out.size(), c.getFlatParameters(), (Map<String, String>) c.getValue()));
        }
        return out;
    }

    public int size() {
        return entries.size();
    }

    public Entry get(int index) {
        return entries.get(index);
    }
}
