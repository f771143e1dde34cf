package org.dpdl4j.audit;

import org.dpdl4j.optim.StepObserver;
import org.dpdl4j.optim.StepTap;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The white-box auditor of gradient canaries: it sees every step's privatised gradient (the noisy clipped sum divided
 * by the expected batch size, which is what DP-SGD releases; the updater's step is post-processing of it) and scores
 * each canary by the sum over the steps of the released gradient's inner product with the canary's vector (random
 * directions, {@link GradientCanaries}, or coordinates, {@link DiracCanaries}). An
 * included canary adds |c|^2 / B to its own inner product whenever it is sampled; an excluded one sees only noise and
 * the data's gradients, so high scores point to inclusion. The data's share is the same for included and excluded
 * canaries but can be far larger than a canary's own in a small network; the auditor built with an
 * {@link ExpectedDataGradient} subtracts its expectation at every step.
 */
public final class WhiteBoxAuditor implements StepObserver {
    private final AuditCanaries canaries;
    private final INDArray scores;
    private final ExpectedDataGradient reference;
    private long steps;

    /** An auditor of the given canaries, with every score 0. */
    public WhiteBoxAuditor(AuditCanaries canaries) {
        this(canaries, null);
    }

    /**
     * An auditor that subtracts the data's expected share from every released gradient before scoring (see
     * {@link ExpectedDataGradient}): a stronger auditor when the data's gradients are coherent, at one pass over the
     * data per step.
     *
     * @param reference null for the plain score
     */
    public WhiteBoxAuditor(AuditCanaries canaries, ExpectedDataGradient reference) {
        this.canaries = canaries;
        this.scores = Nd4j.zeros(DataType.DOUBLE, canaries.canaries(), 1);
        this.reference = reference;
    }

    @Override
    public void onStep(StepTap tap) {
        INDArray g = tap.releasedGradient();
        if (g.length() != canaries.parameters()) {
            throw new IllegalStateException("the released gradient has " + g.length() + " entries but the canaries have "
                    + canaries.parameters() + ": draw the canaries for this network's number of parameters");
        }
        INDArray column = g.reshape(g.length(), 1).castTo(canaries.dataType());
        if (reference != null) {
            column = column.sub(reference.at(tap.parameters()).reshape(g.length(), 1).castTo(canaries.dataType()));
        }
        INDArray dots = canaries.innerProducts(column);
        scores.addi(dots.castTo(DataType.DOUBLE));
        steps++;
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
