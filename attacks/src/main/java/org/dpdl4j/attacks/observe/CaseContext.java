package org.dpdl4j.attacks.observe;

import java.util.Map;
import java.util.Objects;
import org.dpdl4j.attacks.GroundTruth;

/**
 * What the training run knows about a release but the adversary does not: the attacked examples (to score
 * the attack), the round and the model's accuracy then.
 *
 * @param truth         the examples behind the observed message
 * @param round         round (or step) of the release
 * @param modelAccuracy test accuracy of the model at that round, NaN if not measured
 * @param details       settings to record with the case
 */
public record CaseContext(GroundTruth truth, long round, double modelAccuracy, Map<String, String> details) {

    public CaseContext {
        Objects.requireNonNull(truth, "ground truth must not be null");
        details = Map.copyOf(Objects.requireNonNull(details, "details must not be null (use Map.of())"));
    }
}
