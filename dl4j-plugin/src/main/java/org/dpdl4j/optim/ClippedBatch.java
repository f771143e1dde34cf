package org.dpdl4j.optim;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * What one batched per-example pass produced besides the clipped gradient sum (which it wrote into the
 * caller's gradient array).
 *
 * @param norms    per-example gradient L2 norms before clipping: shape [b] for one model, [n, b] stacked
 *                 (padding examples have norm 0); null without clipping (C infinite), when they are not needed
 * @param lossSums sum of the per-example losses of each model: shape [1] or [n]
 * @param clipNorm the clipping norm C the pass used (infinite without clipping)
 */
public record ClippedBatch(INDArray norms, INDArray lossSums, double clipNorm) {

    /**
     * The per-example factors min(1, C / norm) the pass applied (derived from the norms, so a step keeps one
     * array fewer); null without clipping.
     */
    public INDArray clipFactors() {
        return norms == null ? null : Transforms.min(norms.rdiv(clipNorm), 1.0, false);
    }

    /** Number of examples whose gradient was scaled down (norm above C), over all models. */
    public long clippedCount() {
        if (norms == null) {
            return 0;
        }
        return norms.gt(clipNorm).castTo(DataType.INT64).sumNumber().longValue();
    }
}
