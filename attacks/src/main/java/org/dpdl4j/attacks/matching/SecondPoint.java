package org.dpdl4j.attacks.matching;

import java.util.Objects;
import org.dpdl4j.attacks.network.TargetNetwork;

/**
 * A second evaluation point of the dummy's gradient, for observations that combine two gradients of the same
 * examples (mu^2-SGD's increment {@code q_t = alpha_t grad f(x_t) - alpha_(t-1) grad f(x_(t-1))}): the matched
 * quantity becomes {@code currentWeight * G(x'; network) - previousWeight * G(x'; previous)}.
 *
 * @param previous       the network at the second point (same architecture as the problem's network)
 * @param currentWeight  weight of the gradient at the problem's network
 * @param previousWeight weight subtracted at the second point
 */
public record SecondPoint(TargetNetwork previous, double currentWeight, double previousWeight) {

    public SecondPoint {
        Objects.requireNonNull(previous, "previous network must not be null");
        if (!Double.isFinite(currentWeight) || !Double.isFinite(previousWeight)) {
            throw new IllegalArgumentException("weights must be finite, got " + currentWeight + " and " + previousWeight);
        }
    }
}
