package org.dpdl4j.optim;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * Scales rows of a matrix to a maximum L2 norm, in place: the clip of a client's update, of a machine's
 * increment, and the projection onto a centred ball are all this one operation.
 */
public final class RowClipping {
    private RowClipping() {
    }

    /**
     * Scales every row of {@code rows} ([r, p], or a vector as one row) whose norm exceeds {@code bound} to norm
     * {@code bound}; a bound of {@code +Infinity} changes nothing.
     *
     * @return the row norms before clipping, DOUBLE [r]
     */
    public static INDArray clip(INDArray rows, double bound) {
        INDArray matrix = rows.rank() == 1 ? rows.reshape(1, rows.length()) : rows;
        INDArray norms = matrix.norm2(1).castTo(DataType.DOUBLE);
        if (Double.isInfinite(bound) || norms.maxNumber().doubleValue() <= bound) {
            return norms;   // nothing to scale: skip a full pass over the rows
        }
        // min(1, bound / ||row||); a zero row gives bound / 0 = +inf, hence 1.
        INDArray factors = Transforms.min(Transforms.pow(norms, -1.0, true).muli(bound), 1.0, false);
        matrix.muliColumnVector(factors.reshape(factors.length(), 1).castTo(matrix.dataType()));
        return norms;
    }

    /**
     * The factors {@link #clip} scales rows of these norms by: {@code min(1, bound / norm)}, 1 for a zero row or an
     * infinite bound (for a clip applied as weights, leaving the rows as they are).
     */
    public static double[] factors(double[] norms, double bound) {
        double[] out = new double[norms.length];
        for (int i = 0; i < norms.length; i++) {
            out[i] = norms[i] > bound ? bound / norms[i] : 1.0;
        }
        return out;
    }

    /** How many of the norms exceed the bound. */
    public static long countAbove(INDArray norms, double bound) {
        return Double.isInfinite(bound) ? 0 : norms.gt(bound).castTo(DataType.INT64).sumNumber().longValue();
    }
}
