package org.dpdl4j.optim.layers;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.reduce.floating.SquaredNorm;
import org.nd4j.linalg.factory.Nd4j;

/** Per-example squared L2 norms: the sum of squares over every dimension but the first. */
final class SquaredNorms {
    private SquaredNorms() {
    }

    /**
     * {@code [b]}: the squared norm of each example's slice of {@code x} ({@code [b, ...]}). ND4J 1.0.0-M2.1's
     * {@code SquaredNorm} returns its input unsquared when the reduced size is 1, so that case squares explicitly.
     */
    static INDArray perExample(INDArray x) {
        long b = x.size(0);
        INDArray rows = x.rank() == 2 ? x : x.reshape(x.ordering() == 'c' ? 'c' : 'f', b, x.length() / Math.max(1, b));
        if (rows.size(1) == 1) {
            return rows.mul(rows).reshape(b);
        }
        return Nd4j.getExecutioner().exec(new SquaredNorm(rows, 1)).reshape(b);
    }
}
