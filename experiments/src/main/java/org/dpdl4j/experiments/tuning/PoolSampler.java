package org.dpdl4j.experiments.tuning;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.deeplearning4j.arbiter.optimize.api.Candidate;
import org.deeplearning4j.arbiter.optimize.api.CandidateGenerator;
import org.deeplearning4j.arbiter.optimize.api.OptimizationResult;
import org.deeplearning4j.arbiter.optimize.api.ParameterSpace;

/**
 * The candidate generator Arbiter's runner asks for candidates: exactly {@code count} of them, each a pool
 * configuration drawn uniformly at random with replacement (private tuning: every candidate is an independent draw
 * of the same mechanism, as the tuning bound requires), or the pool in order (tuning on public data), with its run's
 * seed. The draws are made up front ({@link #draws()}), so that a private tuning can check every candidate against
 * what it priced before any of them trains. A seed never comes from a candidate's place: a seed derived from it would
 * reveal how many candidates came before, a lower bound on K, which the tuning bound assumes secret.
 */
final class PoolSampler implements CandidateGenerator {
    /** The key of a candidate's pool index in its data parameters. */
    static final String POOL_INDEX = "pool";
    /** The key of a candidate's seed in its data parameters. */
    static final String SEED = "seed";

    /** One candidate: which pool configuration, with which seed. */
    record Draw(CandidatePool.Entry entry, long seed) {
    }

    /** More candidates than any tuning runs: the draws are made up front, one record each. */
    private static final long MAX_CANDIDATES = 10_000_000;

    private final List<Draw> draws;
    private final ParameterSpace<?> space;
    private int given;

    /**
     * @param random the draws from the pool, or null to give the pool in order
     * @param seeds  the candidates' seeds, one call per candidate
     */
    PoolSampler(CandidatePool pool, long count, RandomGenerator random, LongSupplier seeds) {
        if (random == null && count > pool.size()) {
            throw new IllegalArgumentException("cannot give " + count + " candidates in order from a pool of " + pool.size());
        }
        if (count > MAX_CANDIDATES) {
            throw new IllegalArgumentException("cannot run " + count + " candidates (more than " + MAX_CANDIDATES + "); expect"
                    + " fewer (--candidates)");
        }
        List<Draw> drawn = new ArrayList<>((int) count);
        for (int i = 0; i < count; i++) {
            drawn.add(new Draw(pool.get(random == null ? i : random.nextInt(pool.size())), seeds.getAsLong()));
        }
        this.draws = List.copyOf(drawn);
        this.space = pool.space();
    }

    /** Every candidate this sampler gives, in order. */
    List<Draw> draws() {
        return draws;
    }

    @Override
    public boolean hasMoreCandidates() {
        return given < draws.size();
    }

    @Override
    public Candidate<Map<String, String>> getCandidate() {
        if (!hasMoreCandidates()) {
            throw new IllegalStateException("all " + draws.size() + " candidates were given");
        }
        Draw d = draws.get(given);
        Map<String, Object> data = new HashMap<>();
        data.put(POOL_INDEX, d.entry().index());
        data.put(SEED, d.seed());
        return new Candidate<>(d.entry().values(), given++, d.entry().flat(), data, null);
    }

    @Override
    public void reportResults(OptimizationResult result) {
        // the draws never depend on the scores: a private tuning's candidates must not adapt to the data
    }

    @Override
    public ParameterSpace<?> getParameterSpace() {
        return space;
    }

    @Override
    public void setRngSeed(long rngSeed) {
        // the pool was drawn with its own seed, and the draws from it use the run's randomness
    }

    @Override
    public Class<?> getCandidateType() {
        return Map.class;
    }
}
