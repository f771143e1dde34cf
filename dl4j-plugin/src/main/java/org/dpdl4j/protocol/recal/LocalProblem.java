package org.dpdl4j.protocol.recal;

import java.util.Objects;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * One agent's smooth loss {@code f_i(X) = sum_j loss(a_j^T X, b_j)} over its records, in double precision: its
 * gradient with every record's gradient clipped to a bound (the sum of clipped rank-one gradients
 * {@code A^T diag(c) R}, never the per-record gradients themselves), and its smoothness constant.
 *
 * <p>An unclipped least-squares gradient uses the Gram matrix {@code A^T A} ([q, q], computed once), so it costs
 * {@code O(q^2 c)} instead of a pass over the records.
 */
public final class LocalProblem {
    /** Largest number of columns whose Gram matrix is cached. */
    static final int MAX_GRAM_COLUMNS = 4096;

    private final INDArray a;
    private final INDArray b;
    private final SmoothLoss loss;
    private final INDArray recordNorms;
    private final INDArray gram;
    private final INDArray cross;
    private final double targetsSquared;
    private final double smoothness;
    private double clippedFraction;

    /**
     * @param features [m, q], one record per row (an intercept column of ones already appended if wanted)
     * @param targets  [m, c]
     * @param loss     the per-record loss
     */
    public LocalProblem(INDArray features, INDArray targets, SmoothLoss loss) {
        Objects.requireNonNull(features, "features");
        Objects.requireNonNull(targets, "targets");
        this.loss = Objects.requireNonNull(loss, "loss");
        if (features.rank() != 2 || targets.rank() != 2 || features.size(0) != targets.size(0) || features.size(0) == 0) {
            throw new IllegalArgumentException("a local problem needs features [m, q] and targets [m, c] with the same m >= 1,"
                    + " got " + java.util.Arrays.toString(features.shape()) + " and " + java.util.Arrays.toString(targets.shape()));
        }
        this.a = features.castTo(DataType.DOUBLE).dup('c');
        this.b = targets.castTo(DataType.DOUBLE).dup('c');
        if (!finite(a) || !finite(b)) {
            throw new IllegalArgumentException("a local problem's features and targets must be finite numbers");
        }
        this.recordNorms = a.norm2(1).reshape(a.size(0), 1);
        boolean cacheGram = loss == SmoothLoss.LEAST_SQUARES && a.size(1) <= MAX_GRAM_COLUMNS;
        this.gram = cacheGram ? a.transpose().mmul(a) : null;
        this.cross = cacheGram ? a.transpose().mmul(b) : null;
        double bn = b.norm2Number().doubleValue();
        this.targetsSquared = bn * bn;
        this.smoothness = loss.curvature() * largestEigenvalue();
    }

    private static boolean finite(INDArray x) {
        double s = x.sumNumber().doubleValue();
        return Double.isFinite(s) && !x.isNaN().any() && !x.isInfinite().any();
    }

    /**
     * The gradient of {@code f_i} at {@code x} with every record's gradient clipped to norm {@code clip}, written to
     * {@code out} ([q, c]); returns {@code f_i(x)} (the summed loss, unclipped).
     *
     * @param clip the per-record bound G_rec, or +Infinity for the exact gradient
     */
    public double gradient(INDArray x, double clip, INDArray out) {
        if (gram != null && clip == Double.POSITIVE_INFINITY) {
            INDArray gx = gram.mmul(x);
            double value = 0.5 * (x.mul(gx).sumNumber().doubleValue() - 2 * x.mul(cross).sumNumber().doubleValue() + targetsSquared);
            out.assign(gx.subi(cross));
            clippedFraction = 0;
            return Math.max(0, value);
        }
        INDArray r = a.mmul(x);
        double value = loss.residual(r, b);
        if (clip != Double.POSITIVE_INFINITY) {
            INDArray norms = r.norm2(1).reshape(r.size(0), 1).muli(recordNorms);
            INDArray scale = norms.rdiv(clip);
            Transforms.min(scale, 1.0, false);
            clippedFraction = scale.lt(1.0).castTo(DataType.DOUBLE).meanNumber().doubleValue();
            r.muliColumnVector(scale);
        } else {
            clippedFraction = 0;
        }
        out.assign(a.transpose().mmul(r));
        return value;
    }

    /** The fraction of records whose gradient the last {@link #gradient} call clipped. */
    public double clippedFraction() {
        return clippedFraction;
    }

    /** {@code f_i(x)}, the summed loss. */
    public double value(INDArray x) {
        return loss.residual(a.mmul(x), b);
    }

    /** L_i: the loss's curvature factor times {@code lambda_max(A^T A)} (power iteration, 1% margin). */
    public double smoothness() {
        return smoothness;
    }

    private double largestEigenvalue() {
        return ProximalSolver.largestEigenvalue(gram != null ? gram : a.transpose().mmul(a)) * 1.01;
    }

    /** The largest norm of a record's row of features (its intercept's one included). */
    public double largestRecordNorm() {
        return recordNorms.maxNumber().doubleValue();
    }

    /** Number of records m_i. */
    public long size() {
        return a.size(0);
    }

    /** q, the model's rows (features, plus one for an intercept). */
    public long inputs() {
        return a.size(1);
    }

    /** c, the model's columns. */
    public long outputs() {
        return b.size(1);
    }

    public SmoothLoss loss() {
        return loss;
    }

    /** The records' features [m, q] (not a copy). */
    public INDArray features() {
        return a;
    }

    /** The records' targets [m, c] (not a copy). */
    public INDArray targets() {
        return b;
    }

    /** {@code A^T A}, or null when it is not cached. */
    INDArray gram() {
        return gram;
    }

    /** {@code A^T B}, or null when the Gram matrix is not cached. */
    INDArray cross() {
        return cross;
    }
}
