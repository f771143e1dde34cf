package org.dpdl4j.attacks.observe;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.dpdl4j.attacks.AttackCase;

/**
 * The attack cases one tapped protocol run produced, with what its noise calibration assumed.
 *
 * @param algorithm   the protocol, e.g. {@code decor}
 * @param epsilon     the epsilon its noise was calibrated to ({@code +Infinity}: the non-private protocol)
 * @param cases       one case per observer and attacked target
 * @param calibration what the calibration assumed and gave (accounting, unit, rounds, noise), for reports
 */
public record ScenarioRun(String algorithm, double epsilon, List<AttackCase> cases, Map<String, String> calibration) {

    public ScenarioRun {
        Objects.requireNonNull(algorithm, "algorithm must not be null");
        cases = List.copyOf(cases);
        calibration = Map.copyOf(calibration);
    }
}
