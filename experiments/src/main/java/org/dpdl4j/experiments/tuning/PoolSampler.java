package org.dpdl4j.experiments.tuning;

import java.util.HashMap;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.deeplearning4j.arbiter.optimize.api.Candidate;
import org.deeplearning4j.arbiter.optimize.api.CandidateGenerator;
import org.deeplearning4j.arbiter.optimize.api.OptimizationResult;
import org.deeplearning4j.arbiter.optimize.api.ParameterSpace;

/**
 * The candidate generator Arbiter's runner asks for candidates: exactly {@code count} of them, each a pool
 * configuration drawn uniformly at random with replacement (private tuning: every candidate is an independent draw
 * of the same mechanism, as the tuning bound requires), or the pool in order (tuning on public data). Each candidate
 * also gets its run's seed, drawn from a stream of its own: a released candidate's seed then says nothing about its
 * place in the tuning (a seed derived from the place would reveal how many candidates came before it, a lower bound
 * on K, which the tuning bound assumes secret).
 */
final class PoolSampler implements CandidateGenerator {
    /** The key of a candidate's pool index in its data parameters. */
    static final String POOL_INDEX = "pool";
    /** The key of a candidate's seed in its data parameters. */
    static final String SEED = "seed";

    private final CandidatePool pool;
    private final long count;
    private final RandomGenerator random;
    private final RandomGenerator seeds;
    private int given;

    /**
     * @param random the draws from the pool, or null to give the pool in order
     * @param seeds  the candidates' seeds, one draw per candidate
     */
    PoolSampler(CandidatePool pool, long count, RandomGenerator random, RandomGenerator seeds) {
        if (random == null && count > pool.size()) {
            throw new IllegalArgumentException("cannot give " + count + " candidates in order from a pool of " + pool.size());
        }
        this.pool = pool;
        this.count = count;
        this.random = random;
        this.seeds = seeds;
    }

    @Override
    public boolean hasMoreCandidates() {
        return given < count;
    }

    @Override
    public Candidate<Map<String, String>> getCandidate() {
        if (!hasMoreCandidates()) {
            throw new IllegalStateException("all " + count + " candidates were given");
        }
        CandidatePool.Entry e = pool.get(random == null ? given : random.nextInt(pool.size()));
        Map<String, Object> data = new HashMap<>();
        data.put(POOL_INDEX, e.index());
        data.put(SEED, (long) seeds.nextInt(Integer.MAX_VALUE));   // short and non-negative: readable in the train command
        return new Candidate<>(e.values(), given++, e.flat(), data, null);
    }

    @Override
    public void reportResults(OptimizationResult result) {
        // the draws never depend on the scores: a private tuning's candidates must not adapt to the data
    }

    @Override
    public ParameterSpace<?> getParameterSpace() {
        return pool.space();
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
