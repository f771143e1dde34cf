package org.dpdl4j.attacks.observe;

import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.ObservationScale;
import org.dpdl4j.attacks.ReleaseOrigin;

/**
 * Whoever receives a released gradient directly (a parameter server in synchronous SGD, an eavesdropper on a
 * gradient message): the vector is the gradient of the batch-mean loss up to a known factor, possibly with
 * Gaussian noise of known std. The baseline without any protocol in between.
 */
public final class CentralGradientObserver implements AttackObserver<GradientRelease> {
    private static final AttackSurface SURFACE = new AttackSurface("central", "gradient",
            "one released gradient and the model it was computed on",
            "the released vector = scale * gradient of the batch mean loss (+ Gaussian noise)",
            "knows the model at the release, the scale, the batch size and the noise std");

    @Override
    public AttackSurface surface() {
        return SURFACE;
    }

    @Override
    public AttackCase observe(GradientRelease release, CaseContext context) {
        ReleaseOrigin provenance = new ReleaseOrigin(SURFACE.protocol(), SURFACE.position(), context.round(),
                context.modelAccuracy(), context.details())
                .with("noise_std", Double.toString(release.noiseStd()));
        return new AttackCase(release.model(), release.gradient(), ObservationScale.known(release.scale()),
                release.noiseStd(), release.batchSize(), context.truth(), provenance);
    }
}
