package org.dpdl4j.attacks.observe;

import java.util.Locale;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.ObservationScale;
import org.dpdl4j.attacks.ReleaseOrigin;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The party that receives the token in random-walk SGD (Cyffers and Bellet's threat model: local DP of each visit
 * against the next holder), assumed to know the token it would have had before the hop, as an eavesdropper on the
 * previous hop does: {@code (theta - theta+) / gamma = Clip_L(grad f_k(theta)) + eta}. For a holder with one record
 * that is the record's gradient, shrunk by its clip factor (unknown to the attacker where clipping is on), plus noise
 * of std sigma per coordinate.
 */
public final class RandomWalkObserver implements AttackObserver<RandomWalkHop> {
    private static final AttackSurface SURFACE = new AttackSurface("random-walk", "next-holder",
            "the token before and after the holder's update",
            "(theta - theta+) / gamma = clipped gradient of the holder's batch mean + noise",
            "knows the step size, the clip bound and the noise std; not the clip factor");

    @Override
    public AttackSurface surface() {
        return SURFACE;
    }

    @Override
    public AttackCase observe(RandomWalkHop hop, CaseContext context) {
        INDArray gradient = hop.before().sub(hop.after()).divi(hop.stepSize());
        double clipFactor = ClipFactor.of(hop.model(), context.truth(), hop.gradientBound(), false);
        ObservationScale scale = Double.isInfinite(hop.gradientBound()) ? ObservationScale.known(1.0)
                : ObservationScale.unknownPositive(clipFactor);
        ReleaseOrigin provenance = new ReleaseOrigin(SURFACE.protocol(), SURFACE.position(), context.round(),
                context.modelAccuracy(), context.details())
                .with("holder", Integer.toString(hop.holder()))
                .with("step", Long.toString(hop.step()))
                .with("noise_std", String.format(Locale.ROOT, "%.6g", hop.sigma()))
                .with("scale_known", Boolean.toString(scale.knownToAttacker()));
        return new AttackCase(hop.model(), gradient.reshape(1, gradient.length()), scale, hop.sigma(),
                context.truth().size(), context.truth(), provenance);
    }
}
