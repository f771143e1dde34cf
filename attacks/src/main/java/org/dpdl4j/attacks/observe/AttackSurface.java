package org.dpdl4j.attacks.observe;

import java.util.Objects;

/**
 * One row of the attack-surface table: who observes what in a protocol, and how it becomes a gradient.
 *
 * @param protocol    protocol name, e.g. {@code fedavg}
 * @param position    the adversary's position, e.g. {@code server}
 * @param observes    the messages it sees
 * @param vectorGiven the vector handed to the attack and its relation to the gradient
 * @param threatModel what the adversary is assumed to know and do
 */
public record AttackSurface(String protocol, String position, String observes, String vectorGiven,
                            String threatModel) {

    public AttackSurface {
        Objects.requireNonNull(protocol, "protocol must not be null");
        Objects.requireNonNull(position, "position must not be null");
        Objects.requireNonNull(observes, "observes must not be null");
        Objects.requireNonNull(vectorGiven, "vectorGiven must not be null");
        Objects.requireNonNull(threatModel, "threatModel must not be null");
    }
}
