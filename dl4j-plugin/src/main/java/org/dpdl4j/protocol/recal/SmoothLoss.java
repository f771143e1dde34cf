package org.dpdl4j.protocol.recal;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * The smooth part of a composite objective, per record {@code (a, b)} of a linear model {@code X} ([q, c]): the
 * loss depends on the record through {@code z = a^T X}, and its gradient is the rank-one {@code a r^T} with the
 * residual {@code r}, so a record's gradient norm is {@code ||a|| ||r||} (what per-record clipping needs, without
 * forming the gradient).
 */
public enum SmoothLoss {
    /** {@code 1/2 ||X^T a - b||^2}; residual {@code z - b}; smoothness {@code lambda_max(A^T A)}. */
    LEAST_SQUARES("least-squares", 1.0) {
        @Override
        public double residual(INDArray z, INDArray b) {
            z.subi(b);
            double norm = z.norm2Number().doubleValue();
            return 0.5 * norm * norm;
        }
    },
    /**
     * Multinomial logistic (softmax cross-entropy with one-hot {@code b}); residual {@code softmax(z) - b};
     * smoothness {@code lambda_max(A^T A) / 2} (the softmax Hessian's norm is at most 1/2).
     */
    LOGISTIC("logistic", 0.5) {
        @Override
        public double residual(INDArray z, INDArray b) {
            // loss_j = |b_j| lse(z_j) - z_j . b_j, computed on z shifted by its row maximum
            INDArray max = z.max(1).reshape(z.size(0), 1);
            INDArray weight = b.sum(1).reshape(z.size(0), 1);
            z.subiColumnVector(max);
            double shiftedLinear = z.mul(b).sumNumber().doubleValue();
            Transforms.exp(z, false);
            INDArray sums = z.sum(1).reshape(z.size(0), 1);
            double shiftedLse = Transforms.log(sums, true).muli(weight).sumNumber().doubleValue();
            z.diviColumnVector(sums).subi(b);
            return shiftedLse - shiftedLinear;
        }
    };

    private final String cliName;
    private final double curvature;

    SmoothLoss(String cliName, double curvature) {
        this.cliName = cliName;
        this.curvature = curvature;
    }

    /**
     * Turns the scores {@code z = A X} ([m, c], overwritten) into the residuals and returns the summed loss.
     *
     * @param b the targets ([m, c]; one-hot rows for the logistic loss)
     */
    public abstract double residual(INDArray z, INDArray b);

    /** The factor k of the smoothness constant {@code L = k lambda_max(A^T A)}. */
    public double curvature() {
        return curvature;
    }

    public String cliName() {
        return cliName;
    }
}
