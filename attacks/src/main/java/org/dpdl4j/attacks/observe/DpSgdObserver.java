package org.dpdl4j.attacks.observe;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.ObservationScale;
import org.dpdl4j.attacks.ReleaseOrigin;
import org.dpdl4j.optim.StepTap;

/**
 * Whoever receives the gradient a central DP-SGD step releases (a parameter server, or an eavesdropper on the
 * update, who divides a plain SGD step by the learning rate): {@code (sum_i clip_C(g_i) + N(0, (zC)^2 I)) / B} at the
 * model of the step. For one example the vector is {@code (c / B) g + noise} with the clip factor
 * {@code c = min(1, C / ||g||)} unknown to the attacker, who therefore fits the scale; without clipping the scale
 * {@code b / B} is public. Per-example clipping of a larger batch scales every example differently, so such a
 * release is refused.
 */
public final class DpSgdObserver implements AttackObserver<DpSgdRelease> {
    private static final AttackSurface SURFACE = new AttackSurface("dp-sgd", "gradient",
            "the model of a step and the noisy clipped gradient the step releases",
            "(sum_i clip_C(g_i) + N(0, (zC)^2 I)) / B = (c / B) g + noise for one example",
            "knows the model, C, z and B (all public); not the clip factor c of the example, so it fits the scale");

    @Override
    public AttackSurface surface() {
        return SURFACE;
    }

    @Override
    public AttackCase observe(DpSgdRelease release, CaseContext context) {
        StepTap tap = release.tap();
        int batch = context.truth().size();
        if (tap.batchRows() != batch) {
            throw new IllegalArgumentException("the step averaged " + tap.batchRows() + " examples but the ground truth"
                    + " holds " + batch + "; give the examples of the step's batch");
        }
        boolean clipped = !Double.isInfinite(tap.clipNorm());
        if (clipped && batch != 1) {
            throw new IllegalArgumentException("per-example clipping scales each of the " + batch + " examples by its own"
                    + " factor, so the release is not a multiple of the batch gradient; attack steps of batch size 1");
        }
        MultiLayerNetwork model = release.template().clone();
        model.setParams(tap.parameters().dup().reshape(1, model.numParams()).castTo(model.params().dataType()));
        double factor = ClipFactor.of(model, context.truth(), tap.clipNorm(), false) * batch / tap.divisor();
        boolean plain = !clipped && tap.noiseStd() == 0;
        ReleaseOrigin provenance = new ReleaseOrigin(plain ? "sgd" : SURFACE.protocol(), SURFACE.position(), tap.iteration(),
                context.modelAccuracy(), context.details())
                .with("clip_norm", Double.toString(tap.clipNorm()))
                .with("divisor", Double.toString(tap.divisor()))
                .with("noise_std", Double.toString(tap.noiseStd()));
        AttackCase known = new AttackCase(model, tap.releasedGradient().dup().castTo(model.params().dataType()),
                ObservationScale.known(factor), tap.noiseStd(), batch, context.truth(), provenance);
        return clipped ? known.withUnknownScale() : known;
    }
}
