package org.dpdl4j.optim;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What one batched per-example pass produced besides the clipped gradient sum (which it wrote into the
 * caller's gradient array).
 *
 * @param norms        per-example gradient L2 norms before clipping: shape [b] for one model, [n, b] stacked
 *                     (padding examples have norm 0); null without clipping (C infinite), when they are not needed
 * @param lossSums     sum of the per-example losses of each model: shape [1] or [n]
 * @param clipFactors  per-example factors min(1, C / norm) applied; null without clipping
 */
public record ClippedBatch(INDArray norms, INDArray lossSums, INDArray clipFactors) {

    /** Number of examples whose gradient was scaled down, over all models. */
    public long clippedCount() {
        if (clipFactors == null) {
            return 0;
        }
        return clipFactors.lt(1.0).castTo(org.nd4j.linalg.api.buffer.DataType.INT64).sumNumber().longValue();
    }
}
