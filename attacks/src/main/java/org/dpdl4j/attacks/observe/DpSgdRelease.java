package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.StepTap;

/**
 * One step of central DP-SGD as its receiver sees it: the step's tap (valid only during the optimiser's callback)
 * and a network with the run's architecture.
 *
 * @param tap      the step (model, released noisy gradient, its noise std, clip and divisor)
 * @param template a network with the run's architecture (its parameters are ignored)
 */
public record DpSgdRelease(StepTap tap, MultiLayerNetwork template) {

    public DpSgdRelease {
        Objects.requireNonNull(tap, "tap must not be null");
        Objects.requireNonNull(template, "template must not be null");
        if (tap.parameters().length() != template.numParams()) {
            throw new IllegalArgumentException("the step's parameters have " + tap.parameters().length()
                    + " entries but the template network has " + template.numParams());
        }
    }
}
