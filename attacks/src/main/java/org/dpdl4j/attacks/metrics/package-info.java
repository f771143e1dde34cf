/**
 * Image-comparison metrics on pixels in [0, 1]: {@link ImageMetrics} (MSE and PSNR), {@link Ssim} (structural
 * similarity with a Gaussian window and "valid" filtering) and {@link Assignment}, the Hungarian method that pairs
 * reconstructions with originals, since a gradient does not reveal the order of a batch. These are plain array
 * computations: applying them to an attack case (de-normalising, pairing, per-example scores) is
 * {@code org.dpdl4j.attacks.CaseScorer}, and the failure thresholds of a campaign are derived in
 * {@code org.dpdl4j.experiments.campaign}.
 */
package org.dpdl4j.attacks.metrics;
