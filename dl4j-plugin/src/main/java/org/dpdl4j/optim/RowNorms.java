package org.dpdl4j.optim;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.reduce.floating.SquaredNorm;
import org.nd4j.linalg.factory.Nd4j;

/** Squared L2 norms along the last dimension, in one reduction. */
final class RowNorms {
    private RowNorms() {
    }

    /**
     * Sum of squares along {@code dimension} (the last one). ND4J 1.0.0-M2.1's {@code SquaredNorm} returns
     * the input unsquared when that dimension has size 1, so that case squares explicitly.
     */
    static INDArray squared(INDArray x, int dimension) {
        if (x.size(dimension) == 1) {
            long[] shape = java.util.Arrays.copyOf(x.shape(), x.rank() - 1);
            return x.mul(x).reshape(shape);
        }
        return Nd4j.getExecutioner().exec(new SquaredNorm(x, dimension));
    }
}
