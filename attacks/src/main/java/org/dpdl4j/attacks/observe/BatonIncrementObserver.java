package org.dpdl4j.attacks.observe;

import java.util.Locale;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.ObservationScale;
import org.dpdl4j.attacks.ReleaseOrigin;
import org.dpdl4j.protocol.recal.BatonPublication;

/**
 * The paper-style eavesdropper on RECAL's baton (spec table 8.5): it sees only the increment {@code s+ - s} of the
 * published duals and treats {@code -(s+ - s)} as a positively scaled gradient, without the affine terms
 * {@code beta (x_old - 2 tau lam_old - 2 y+ + y)} it does not know. Those terms stay in the observation as a bias,
 * so this adversary does worse than the {@link BatonEavesdropper}; the noise per coordinate is
 * {@code sigma_i zeta^((K_i - 1)/2)} on {@code 2 beta_i tau_i} times the gradient.
 */
public final class BatonIncrementObserver implements AttackObserver<BatonRelease> {
    private final String protocol;

    /** @param protocol {@code recal} or {@code dp-recal} */
    public BatonIncrementObserver(String protocol) {
        this.protocol = protocol;
    }

    @Override
    public AttackSurface surface() {
        return new AttackSurface(protocol, "increment", "the baton's dual sum s before and after a step",
                "-(s+ - s) = 2 beta tau grad f_i(x_old) + unknown affine terms + noise",
                "knows the model the agent computed its gradient at, not the agent's dual or the steps' affine terms");
    }

    @Override
    public AttackCase observe(BatonRelease release, CaseContext context) {
        BatonPublication p = release.publication();
        MultiLayerNetwork model = release.modelAtRelease();
        double clipFactor = ClipFactor.of(model, context.truth(), release.clip(), true);
        double factor = -p.gradientCoefficient() * context.truth().size() * clipFactor;
        ReleaseOrigin provenance = new ReleaseOrigin(protocol, "increment", context.round(), context.modelAccuracy(),
                context.details())
                .with("agent", Integer.toString(p.agent()))
                .with("activation", Long.toString(p.activation()))
                .with("noise_std", String.format(Locale.ROOT, "%.6g", p.noiseStd()))
                .with("scale_known", "false");
        return new AttackCase(model, release.linear().flat(p.increment().negi()), ObservationScale.unknownPositive(factor),
                p.noiseStd(), context.truth().size(), context.truth(), provenance);
    }
}
