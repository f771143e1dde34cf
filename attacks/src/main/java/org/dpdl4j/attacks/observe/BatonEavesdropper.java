package org.dpdl4j.attacks.observe;

import java.util.Locale;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.ObservationScale;
import org.dpdl4j.attacks.ReleaseOrigin;
import org.dpdl4j.protocol.recal.BatonPublication;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The oracle eavesdropper on RECAL's baton (spec table 8.5): it reads {@code (y, s)} before and after the active
 * agent's step and knows that agent's {@code x_old} and previous dual (stronger than the paper's adversary: an
 * upper bound on the leakage). With theta = 2 the increment is
 * {@code s+ - s = beta (x_old - 2 tau lam_old - 2 y+ + y) - 2 beta tau grad f_i(x_old) + xi}, so
 * <pre>
 *   g = -(s+ - s - beta (x_old - 2 tau lam_old - 2 y+ + y)) / (2 beta tau) = grad f_i(x_old) - xi / (2 beta tau)
 * </pre>
 * with per-coordinate noise {@code sigma_i zeta^((K_i - 1)/2) / (2 beta_i tau_i)}. The gradient is that of the
 * agent's summed loss with every record's gradient clipped to G_rec: for an agent holding one record, the clip
 * factor of that record, which the attacker does not know under DP-RECAL.
 */
public final class BatonEavesdropper implements AttackObserver<BatonRelease> {
    private final String protocol;

    /** @param protocol {@code recal} or {@code dp-recal} */
    public BatonEavesdropper(String protocol) {
        this.protocol = protocol;
    }

    @Override
    public AttackSurface surface() {
        return new AttackSurface(protocol, "eavesdropper",
                "the baton (y, s) before and after the active agent's step, and that agent's x_old and previous dual",
                "-(s+ - s - beta (x_old - 2 tau lam_old - 2 y+ + y)) / (2 beta tau) = grad f_i(x_old) + noise",
                "oracle: knows the agent's internal state, its steps tau_i, beta_i and the noise schedule");
    }

    @Override
    public AttackCase observe(BatonRelease release, CaseContext context) {
        BatonPublication p = release.publication();
        if (p.theta() != 2) {
            throw new IllegalArgumentException("the baton eavesdropper inverts the theta = 2 iteration; this run has theta = "
                    + p.theta());
        }
        double coefficient = p.gradientCoefficient();
        INDArray known = p.xOld().sub(p.dualBefore().mul(2 * p.tau())).subi(p.yAfter().mul(2)).addi(p.yBefore())
                .muli(p.beta());
        INDArray gradient = p.increment().subi(known).divi(coefficient);
        MultiLayerNetwork model = release.modelAtRelease();
        double clipFactor = ClipFactor.of(model, context.truth(), release.clip(), true);
        double size = context.truth().size();
        // The observation is the gradient of the summed loss: batch size times that of the batch mean.
        ObservationScale scale = Double.isInfinite(release.clip()) ? ObservationScale.known(size)
                : ObservationScale.unknownPositive(size * clipFactor);
        double noise = p.noiseStd() / Math.abs(coefficient);
        ReleaseOrigin provenance = new ReleaseOrigin(protocol, "eavesdropper", context.round(), context.modelAccuracy(),
                context.details())
                .with("agent", Integer.toString(p.agent()))
                .with("activation", Long.toString(p.activation()))
                .with("noise_std", String.format(Locale.ROOT, "%.6g", noise))
                .with("scale_known", Boolean.toString(scale.knownToAttacker()));
        return new AttackCase(model, release.linear().flat(gradient), scale, noise, context.truth().size(),
                context.truth(), provenance);
    }
}
