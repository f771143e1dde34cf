package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.ObservationScale;
import org.dpdl4j.attacks.ReleaseOrigin;
import org.dpdl4j.runtime.ObservedRelease;
import org.dpdl4j.runtime.ObserverDeclaration;

/**
 * An adversary position a protocol declares ({@link ObserverDeclaration}), attacking the releases its run hands
 * out as {@link ObservedRelease}s: {@code scale * clip_C(g) + noise} at the model of the release. As for central
 * DP-SGD ({@link DpSgdObserver}), the scale is public without clipping and fitted when clipped (the clip factor of
 * the example is unknown); a release of several examples under clipping scales each by its own factor, so it is
 * refused.
 */
final class DeclaredObserver implements AttackObserver<ObservedRelease> {
    private final AttackSurface surface;
    private final MultiLayerNetwork template;

    /**
     * @param protocol    the protocol's registered name
     * @param declaration the position, as the protocol declares it
     * @param template    a network with the run's architecture (its parameters are ignored)
     */
    DeclaredObserver(String protocol, ObserverDeclaration declaration, MultiLayerNetwork template) {
        Objects.requireNonNull(declaration, "declaration must not be null");
        this.template = Objects.requireNonNull(template, "template must not be null");
        this.surface = new AttackSurface(protocol, declaration.name(), declaration.sees(),
                "the released vector = scale * clip_C(gradient of the batch mean loss) + noise", declaration.threatModel());
    }

    @Override
    public AttackSurface surface() {
        return surface;
    }

    @Override
    public AttackCase observe(ObservedRelease release, CaseContext context) {
        int batch = context.truth().size();
        if (release.rows().length != batch) {
            throw new IllegalArgumentException("the release holds " + release.rows().length + " examples but the ground"
                    + " truth " + batch + "; give the examples behind the release");
        }
        if (release.isClipped() && batch != 1) {
            throw new IllegalArgumentException("clipping scales each of the " + batch + " examples by its own factor, so"
                    + " the release is not a multiple of the batch gradient; attack releases of one example");
        }
        if (release.parameters().length() != template.numParams()) {
            throw new IllegalArgumentException("the release's model has " + release.parameters().length()
                    + " parameters but the run's network " + template.numParams());
        }
        MultiLayerNetwork model = template.clone();
        model.setParams(release.parameters().dup().reshape(1, model.numParams()).castTo(model.params().dataType()));
        double factor = release.scale() * ClipFactor.of(model, context.truth(), release.clipNorm(), false);
        ReleaseOrigin provenance = new ReleaseOrigin(surface.protocol(), surface.position(), release.step(),
                context.modelAccuracy(), context.details())
                .with("clip_norm", Double.toString(release.clipNorm()))
                .with("scale", Double.toString(release.scale()))
                .with("noise_std", Double.toString(release.noiseStd()));
        AttackCase known = new AttackCase(model, release.released().dup().castTo(model.params().dataType()),
                ObservationScale.known(factor), release.noiseStd(), batch, context.truth(), provenance);
        return release.isClipped() ? known.withUnknownScale() : known;
    }
}
