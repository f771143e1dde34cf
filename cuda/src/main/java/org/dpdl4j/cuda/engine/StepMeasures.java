package org.dpdl4j.cuda.engine;

/**
 * What a batched pass measured besides the clipped sum: each example's gradient norm before clipping (null without
 * clipping) and the batch's loss sum.
 */
public record StepMeasures(float[] norms, double lossSum) {
}
