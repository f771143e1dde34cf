package org.dpdl4j.attacks;

import java.util.Map;
import java.util.Objects;

/**
 * Where an observed vector came from, recorded with every attack result.
 *
 * @param protocol      training protocol, e.g. {@code fedavg}
 * @param observer      adversary position, e.g. {@code server}
 * @param round         training round (or step) of the release
 * @param modelAccuracy test accuracy of the model at that round, NaN if not measured
 * @param details       further settings (learning rate, noise, seed, dataset index), as text
 */
public record ReleaseOrigin(String protocol, String observer, long round, double modelAccuracy,
                         Map<String, String> details) {

    public ReleaseOrigin {
        Objects.requireNonNull(protocol, "protocol must not be null");
        Objects.requireNonNull(observer, "observer must not be null");
        if (round < 0) {
            throw new IllegalArgumentException("round must be >= 0, got " + round);
        }
        if (!Double.isNaN(modelAccuracy) && !(modelAccuracy >= 0 && modelAccuracy <= 1)) {
            throw new IllegalArgumentException("model accuracy must lie in [0, 1] or be NaN, got " + modelAccuracy);
        }
        details = Map.copyOf(Objects.requireNonNull(details, "details must not be null (use Map.of())"));
    }

    /** The same provenance with one more detail. */
    public ReleaseOrigin with(String key, String value) {
        var copy = new java.util.TreeMap<>(details);
        copy.put(key, value);
        return new ReleaseOrigin(protocol, observer, round, modelAccuracy, copy);
    }
}
