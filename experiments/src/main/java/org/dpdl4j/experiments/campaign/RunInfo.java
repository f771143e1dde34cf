package org.dpdl4j.experiments.campaign;

import java.util.Map;

/**
 * One tapped protocol run of a campaign.
 *
 * @param algorithm   the protocol
 * @param epsilon     the calibrated epsilon ({@code +Infinity}: non-private)
 * @param calibration what its noise calibration assumed and gave
 * @param cases       attack cases it produced
 * @param seconds     training and tapping time
 */
public record RunInfo(String algorithm, double epsilon, Map<String, String> calibration, int cases, double seconds) {

    public RunInfo {
        calibration = Map.copyOf(calibration);
    }
}
