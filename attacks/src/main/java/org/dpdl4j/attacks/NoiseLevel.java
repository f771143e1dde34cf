package org.dpdl4j.attacks;

/**
 * How noisy the observation was, per coordinate.
 *
 * @param observedStd   noise std in the units of the observed vector
 * @param gradientStd   noise std in gradient units ({@code observedStd / |scale|})
 * @param gradientRms   root mean square of the noise-free gradient of the batch-mean loss
 * @param ratio         {@code gradientStd / gradientRms}
 */
public record NoiseLevel(double observedStd, double gradientStd, double gradientRms, double ratio) {
}
