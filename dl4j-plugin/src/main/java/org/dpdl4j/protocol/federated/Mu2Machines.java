package org.dpdl4j.protocol.federated;

import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.PerExampleGradients;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Arrays;
import java.util.Objects;

import static org.nd4j.linalg.indexing.NDArrayIndex.all;
import static org.nd4j.linalg.indexing.NDArrayIndex.interval;

/**
 * The machine side of mu^2-SGD for M machines at once (spec 4.2-4.3): each machine's private weighted
 * corrected-momentum estimate {@code dhat^i} as row i of an [M, p] matrix, updated by
 * <pre>
 *   q_t^i    = alpha_t grad f(x_t; z) - alpha_{t-1} grad f(x_{t-1}; z)      (the same fresh sample z at both points)
 *   dhat_t^i = dhat_{t-1}^i + Clip_S(q_t^i)                                  (Clip only with the safety clip)
 * </pre>
 * The 2M gradients of a round come from one batched pass of {@link PerExampleGradients}: the model at
 * {@code x_t} for every machine in rows 0..M-1 and at {@code x_{t-1}} in rows M..2M-1, each on the
 * machine's sample(s). With a batch of b samples per machine the gradients are batch means.
 *
 * <p>Because {@code alpha_t (1 - beta_t) = alpha_{t-1}} with {@code beta_t = 1/t}, {@code dhat_t / alpha_t} is
 * the usual corrected-momentum estimate {@code d_t = grad f(x_t; z_t) + (1 - beta_t)(d_{t-1} - grad f(x_{t-1}; z_t))},
 * and {@code dhat_t = sum_{tau <= t} q_tau}: each sample enters through one q only, which is what bounds the
 * sensitivity of every later message by {@code 2S}.
 */
public final class Mu2Machines {
    private final PerExampleGradients gradients;
    private final int machines;
    private final long p;
    private final double clip;
    private final DataType type;
    private final INDArray dhat;
    private final INDArray points;
    private final INDArray current;
    private final INDArray before;
    private final INDArray grad;
    private final INDArray gradAtCurrent;
    private final INDArray gradAtBefore;

    /**
     * @param gradients the per-example gradient engine of the model
     * @param machines  M &gt;= 1
     * @param clip      the safety clip S of q, or {@link Double#POSITIVE_INFINITY} for none (certified constants)
     */
    public Mu2Machines(PerExampleGradients gradients, int machines, double clip) {
        this.gradients = Objects.requireNonNull(gradients, "gradients");
        if (machines < 1) {
            throw new IllegalArgumentException("the number of machines M must be >= 1, got " + machines);
        }
        if (!(clip > 0)) {
            throw new IllegalArgumentException("the safety clip S must be > 0 (or +Infinity for none), got " + clip);
        }
        this.machines = machines;
        this.clip = clip;
        this.p = gradients.spec().numParams();
        this.type = gradients.spec().dataType();
        this.dhat = Nd4j.zeros(type, machines, p);
        this.points = Nd4j.zeros(type, 2L * machines, p);
        this.current = points.get(interval(0, machines), all());
        this.before = points.get(interval(machines, 2L * machines), all());
        this.grad = Nd4j.zeros(type, 2L * machines, p);
        this.gradAtCurrent = grad.get(interval(0, machines), all());
        this.gradAtBefore = grad.get(interval(machines, 2L * machines), all());
    }

    /**
     * One round of every machine: gradients at the query points {@code x_t} and {@code x_{t-1}} on this round's
     * fresh samples, then {@code dhat += Clip(q)}.
     *
     * @param x        the query point x_t ([p] or [1, p])
     * @param previous x_{t-1} (any value when t = 1: its weight alpha_0 is 0)
     * @param t        round index, &gt;= 1
     * @param features [M, b, nIn] the samples of the round, machine i in slice i
     * @param labels   [M, b, k]
     * @return what the round measured
     */
    public MomentumStep accumulate(INDArray x, INDArray previous, long t, INDArray features, INDArray labels) {
        if (t < 1) {
            throw new IllegalArgumentException("round index t must be >= 1, got " + t);
        }
        if (features.rank() != 3 || features.size(0) != machines) {
            throw new IllegalArgumentException("features must have shape [" + machines + ", batch, nIn], got "
                    + Arrays.toString(features.shape()));
        }
        long b = features.size(1);
        current.putiRowVector(asRow(x));
        before.putiRowVector(asRow(previous));
        INDArray f = features.castTo(type);
        INDArray l = labels.castTo(type);
        ClippedBatch batch = gradients.clippedSum(points, Nd4j.concat(0, f, f), Nd4j.concat(0, l, l), null,
                Double.POSITIVE_INFINITY, grad);
        // q = (alpha_t / b) sum grad(x_t) - (alpha_{t-1} / b) sum grad(x_{t-1}), formed in place in the gradient buffer
        INDArray q = gradAtCurrent.muli(Mu2Iterates.alpha(t) / b);
        if (t > 1) {
            Nd4j.getBlasWrapper().level1().axpy(q.length(), -Mu2Iterates.alpha(t - 1) / b, gradAtBefore, q);
        }
        INDArray norms = RowClipping.clip(q, clip);
        double maxNorm = norms.maxNumber().doubleValue();
        long clipped = maxNorm > clip ? RowClipping.countAbove(norms, clip) : 0;
        dhat.addi(q);
        double loss = batch.lossSums().get(interval(0, machines)).sumNumber().doubleValue() / (machines * (double) b);
        return new MomentumStep(loss, maxNorm, clipped);
    }

    /** The point as a [1, p] row of the model's type, without a new array when it already is one. */
    private INDArray asRow(INDArray point) {
        INDArray row = point.rank() == 2 && point.size(0) == 1 ? point : point.reshape(1, p);
        return row.dataType() == type ? row : row.castTo(type);
    }

    /** The machines' estimates {@code dhat} as an [M, p] matrix (live view: copy it to keep it). */
    public INDArray dhat() {
        return dhat;
    }

    public int machines() {
        return machines;
    }

    /** The safety clip S of q ({@code +Infinity} when off). */
    public double clip() {
        return clip;
    }

    public PerExampleGradients gradients() {
        return gradients;
    }

    /** Restores the estimates from a checkpoint. */
    void restore(INDArray saved) {
        if (saved.rank() != 2 || saved.size(0) != machines || saved.size(1) != p) {
            throw new IllegalArgumentException("checkpoint holds estimates of shape " + Arrays.toString(saved.shape())
                    + " but this run has [" + machines + ", " + p + "]");
        }
        dhat.assign(saved);
    }

    /**
     * What one round of the machines measured.
     *
     * @param meanLoss       mean loss of the round's fresh samples at {@code x_t}, before the update (a progressive
     *                       validation loss: every sample is seen once)
     * @param maxNormQ       the largest {@code ||q_t^i||} before clipping
     * @param clippedMachines how many machines' q was scaled down by the safety clip
     */
    public record MomentumStep(double meanLoss, double maxNormQ, long clippedMachines) {
    }
}
