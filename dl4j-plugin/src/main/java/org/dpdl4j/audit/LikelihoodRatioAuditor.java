package org.dpdl4j.audit;

import org.dpdl4j.optim.StepObserver;
import org.dpdl4j.optim.StepTap;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * The white-box auditor that sees every step and scores each canary by the log-likelihood ratio of "included" against
 * "excluded", the most powerful test of one canary's membership (Neyman-Pearson).
 *
 * <p>At step t the released gradient's projection on canary k's unit direction, in units of the noise std
 * {@code sigma = z C} (the learning rate and the batch divisor undone: {@code x_t = <g_t, c_k> / (|c_k| zC / B)}), is
 * N(0, 1) when the canary is excluded and, when included, N(mu, 1) with probability q (the step samples it) or N(0, 1)
 * otherwise, with {@code mu = |c_k| / (zC)}, i.e. 1/z for a canary of norm C. The steps are independent given the
 * inclusion, so the score is {@code sum_t log(1 - q + q exp(mu x_t - mu^2 / 2))}.
 *
 * <p>The model holds exactly for {@link DiracCanaries} on {@link ZeroGradientCoordinates}, where no data term enters
 * the projection; for other canaries the data's share makes the score weaker but the audit stays valid (any score
 * does: the coins alone decide what is right). q is the per-step probability that a given example is in the batch:
 * the Poisson rate, or B/N for fixed-size batches (the steps' samples are then not quite independent, which again
 * costs power only).
 */
public final class LikelihoodRatioAuditor implements StepObserver {
    private final AuditCanaries canaries;
    private final double samplingRate;
    private final INDArray scores;
    private long steps;

    /**
     * @param canaries     the planted canaries
     * @param samplingRate q, the probability that a step's batch holds a given example (the trainer's sampler's rate)
     */
    public LikelihoodRatioAuditor(AuditCanaries canaries, double samplingRate) {
        if (!(samplingRate > 0 && samplingRate <= 1)) {
            throw new IllegalArgumentException("the sampling rate q must lie in (0, 1], got " + samplingRate);
        }
        this.canaries = canaries;
        this.samplingRate = samplingRate;
        this.scores = Nd4j.zeros(DataType.DOUBLE, canaries.canaries(), 1);
    }

    @Override
    public void onStep(StepTap tap) {
        INDArray g = tap.releasedGradient();
        if (g.length() != canaries.parameters()) {
            throw new IllegalStateException("the released gradient has " + g.length() + " entries but the canaries have "
                    + canaries.parameters() + ": draw the canaries for this network's number of parameters");
        }
        if (!(tap.noiseStd() > 0)) {
            throw new IllegalStateException("the step released its gradient without noise (std " + tap.noiseStd()
                    + "): a likelihood ratio needs the noise's scale; audit a private run");
        }
        INDArray column = g.reshape(g.length(), 1).castTo(canaries.dataType());
        // x = <g, c> / (|c| * zC / B): the projection on the unit direction in units of the noise std.
        INDArray x = canaries.innerProducts(column).castTo(DataType.DOUBLE).divi(canaries.norm() * tap.noiseStd());
        double mu = canaries.norm() / (tap.noiseStd() * tap.divisor());
        scores.addi(logMixtureRatio(x, mu, samplingRate));
        steps++;
    }

    /**
     * {@code log(1 - q + q exp(mu x - mu^2 / 2))} of every entry, overflow-free: it is
     * {@code log(1 - q) + softplus(mu x - mu^2 / 2 + log(q / (1 - q)))}, with softplus(y) = max(y, 0) + log1p(exp(-|y|)).
     * Overwrites x.
     */
    static INDArray logMixtureRatio(INDArray x, double mu, double q) {
        if (q == 1) {
            return x.muli(mu).subi(mu * mu / 2);
        }
        INDArray y = x.muli(mu).addi(-mu * mu / 2 + Math.log(q / (1 - q)));
        INDArray tail = Transforms.log1p(Transforms.exp(Transforms.abs(y, true).negi(), false), false);
        return Transforms.max(y, 0.0, false).addi(tail).addi(Math.log1p(-q));
    }

    /** Each canary's score so far (a copy). */
    public double[] scores() {
        return scores.reshape(scores.length()).toDoubleVector();
    }

    /** The steps observed. */
    public long steps() {
        return steps;
    }
}
