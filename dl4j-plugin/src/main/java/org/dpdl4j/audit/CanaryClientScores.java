package org.dpdl4j.audit;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.SpecifiedIndex;

/**
 * Each canary client's log-likelihood ratio of "in" against "out", summed over what an observer saw of it: the most
 * powerful test of each canary (Neyman-Pearson), as {@link LikelihoodRatioAuditor} is for DP-SGD.
 *
 * <p>One observation x is the canary's coordinate of a noisy message, in units of the noise std. When the canary is in,
 * it is N(mu, 1) with probability q (the canary took part) and N(0, 1) otherwise, mu = S / sigma. When it is out, it is
 * N(0, 1) if "out" means absent, or the mirror (N(-mu, 1) with probability q, N(0, 1) otherwise) if "out" means its
 * update replaced by {@code -S e_j}. The ratio of one observation is
 * {@code log(1 - q + q exp(mu x - mu^2/2))}, less the same at {@code -x} for the mirror.
 */
public final class CanaryClientScores {
    private final CanaryClients canaries;
    private final INDArray scores;
    private long observations;

    public CanaryClientScores(CanaryClients canaries) {
        this.canaries = canaries;
        this.scores = Nd4j.zeros(DataType.DOUBLE, canaries.canaries(), 1);
    }

    /**
     * Adds one observation of each of some canaries.
     *
     * @param which the canaries observed, distinct
     * @param x     [which.length, 1]: their coordinates of the message, in units of the noise std (overwritten)
     * @param mu    S / sigma, the canary's shift in those units
     * @param q     the probability that an "in" canary took part in what was observed (1 when the observer sees who sends)
     */
    public void add(int[] which, INDArray x, double mu, double q) {
        if (which.length == 0) {
            return;
        }
        if (!(q > 0 && q <= 1)) {
            throw new IllegalArgumentException("the participation probability q must lie in (0, 1], got " + q);
        }
        INDArray in = x.castTo(DataType.DOUBLE).reshape(which.length, 1);
        INDArray ratio = canaries.outMirrored()
                ? LikelihoodRatioAuditor.logMixtureRatio(in.dup(), mu, q).subi(LikelihoodRatioAuditor.logMixtureRatio(in.neg(), mu, q))
                : LikelihoodRatioAuditor.logMixtureRatio(in, mu, q);
        if (which.length == canaries.canaries() && isIdentity(which)) {
            scores.addi(ratio);
        } else {
            SpecifiedIndex rows = new SpecifiedIndex(java.util.Arrays.stream(which).asLongStream().toArray());
            scores.put(new org.nd4j.linalg.indexing.INDArrayIndex[]{rows, org.nd4j.linalg.indexing.NDArrayIndex.all()},
                    scores.get(rows, org.nd4j.linalg.indexing.NDArrayIndex.all()).addi(ratio));
        }
        observations += which.length;
    }

    private static boolean isIdentity(int[] which) {
        for (int i = 0; i < which.length; i++) {
            if (which[i] != i) {
                return false;
            }
        }
        return true;
    }

    /** Each canary's score so far (a copy). */
    public double[] scores() {
        return scores.reshape(scores.length()).toDoubleVector();
    }

    /** The observations added, over all canaries. */
    public long observations() {
        return observations;
    }
}
