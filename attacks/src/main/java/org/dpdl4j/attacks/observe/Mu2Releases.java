package org.dpdl4j.attacks.observe;

import java.util.Map;
import java.util.TreeMap;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.GradientForm;
import org.dpdl4j.attacks.ObservationScale;
import org.dpdl4j.attacks.ReleaseOrigin;
import org.dpdl4j.protocol.federated.Mu2Config;
import org.dpdl4j.protocol.federated.Mu2Iterates;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What a machine's increment holds in mu^2-SGD: {@code Clip_S(q_t)} with
 * {@code q_t = alpha_t grad f(x_t; z) - alpha_(t-1) grad f(x_(t-1); z)} (batch mean over the round's examples).
 * Shared by the observers of the untrusted server and of another machine.
 */
final class Mu2Releases {
    private Mu2Releases() {
    }

    /** A network holding the given parameters. */
    static MultiLayerNetwork at(MultiLayerNetwork template, INDArray parameters) {
        MultiLayerNetwork model = template.clone();
        model.setParams(parameters.dup().reshape(1, model.numParams()).castTo(model.params().dataType()));
        return model;
    }

    /**
     * The case of an observed increment {@code factor * q_t + noise} (factor = clip factor / divisor).
     *
     * @param divisor what the increment was divided by in the observation (1, or none)
     */
    static AttackCase caseOf(Mu2Config config, String observer, MultiLayerNetwork template, INDArray point,
                             INDArray previousPoint, long t, INDArray observed, double noiseStd, int machine,
                             CaseContext context, Map<String, String> extra) {
        MultiLayerNetwork current = at(template, point);
        MultiLayerNetwork previous = at(template, previousPoint);
        double a = Mu2Iterates.alpha(t);
        double b = Mu2Iterates.alpha(t - 1);
        double c = ClipFactor.ofDifference(current, previous, context.truth(), a, b, config.qClip());
        Map<String, String> details = new TreeMap<>(context.details());
        details.putAll(extra);
        details.put("machine", Integer.toString(machine));
        details.put("mu2_t", Long.toString(t));
        details.put("alpha_t", Double.toString(a));
        details.put("q_clip", Double.toString(config.qClip()));
        ReleaseOrigin provenance = new ReleaseOrigin(config.algorithmName(), observer, t - 1, context.modelAccuracy(),
                details);
        GradientForm form = new GradientForm.Difference(previousPoint, a, b);
        AttackCase known = new AttackCase(current, observed.dup().reshape(1, current.numParams())
                .castTo(current.params().dataType()), ObservationScale.known(c), noiseStd, context.truth().size(),
                context.truth(), provenance, form);
        return Double.isInfinite(config.qClip()) ? known : known.withUnknownScale();
    }

    /** Std of the difference of the noises of rounds t and t - 1 (the noise of round 0 is none). */
    static double differenceStd(Mu2Config config, long t) {
        double now = config.noise().at(t);
        double before = t > 1 ? config.noise().at(t - 1) : 0.0;
        return Math.sqrt(now * now + before * before);
    }
}
