package org.dpdl4j.experiments.tuning;

/**
 * One candidate of a {@link PrivateTuning}: the tuner's own record. With every candidate's number and score it shows K,
 * which the tuning bound assumes secret: it is not released, and the guarantee does not cover publishing it.
 *
 * @param number        its place in the tuning (0-based)
 * @param poolIndex     the pool configuration it trained
 * @param configuration that configuration (a value of the search space)
 * @param outcome       how its run ended
 * @param score         its released, noisy validation accuracy; -Infinity when it diverged
 * @param epsilon       what its own run spent (its ledger, without the tuning)
 * @param steps         the private steps it took
 * @param <T>           the search space's values
 */
public record TunedCandidate<T>(int number, int poolIndex, T configuration, CandidateResult.Outcome outcome, double score,
                                double epsilon, long steps) {
}
