package org.dpdl4j.protocol.muffliato;

/**
 * Pairwise network-DP epsilons summarised over the ordered pairs (u, v), u != v, next to the local-DP epsilon of the
 * same noise (what an observer seeing u's released values themselves would get).
 *
 * @param mean    mean over pairs
 * @param median  median over pairs
 * @param p90     90th percentile over pairs
 * @param max     the largest pairwise epsilon: the guarantee every pair has
 * @param local   local DP epsilon of the same noise and rounds
 * @param delta   the delta of every value
 */
public record PairwiseSummary(double mean, double median, double p90, double max, double local, double delta) {

    /** One line, e.g. for a privacy statement. */
    public String describe() {
        return String.format(java.util.Locale.ROOT,
                "pairwise epsilon over ordered pairs: mean %.4g, median %.4g, p90 %.4g, max %.4g; local DP epsilon %.4g (delta %.3g)",
                mean, median, p90, max, local, delta);
    }
}
