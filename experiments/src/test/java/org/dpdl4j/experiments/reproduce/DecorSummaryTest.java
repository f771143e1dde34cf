package org.dpdl4j.experiments.reproduce;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.junit.jupiter.api.Test;

/**
 * The Figure 1 shape check of reproduce decor: on the synthetic task Decor's gap to CDP must be at most 1/5 of LDP's
 * (from epsilon 7 on); made-up results on either side of that line give either verdict.
 */
class DecorSummaryTest {
    private static final DecorSetting CDP = new DecorSetting(DecentralizedAlgorithm.CDP, "complete");
    private static final DecorSetting LDP = new DecorSetting(DecentralizedAlgorithm.LDP, "ring");
    private static final DecorSetting DECOR = new DecorSetting(DecentralizedAlgorithm.DECOR, "ring");

    @Test
    void decorWithinAFifthOfLdpsGapHoldsAndBeyondItFails() {
        // optimality gaps (lower is better): CDP 1, LDP 2, so Decor holds up to 1.2
        String holds = summary(1.1).markdown();
        assertTrue(holds.contains("(Decor - CDP) / (LDP - CDP) = 0.100  [<= 1/5: holds]"), holds);
        String fails = summary(1.5).markdown();
        assertTrue(fails.contains("(Decor - CDP) / (LDP - CDP) = 0.500  [> 1/5: FAILS]"), fails);
        String below = summary(1.5, 3.0).markdown();
        assertTrue(below.contains("[not checked]") && !below.contains("FAILS"), "below epsilon 7 nothing is checked: " + below);
    }

    private static DecorSummary summary(double decorGap) {
        return summary(decorGap, 10.0);
    }

    private static DecorSummary summary(double decorGap, double epsilon) {
        List<DecorReproduction.Row> rows = new ArrayList<>();
        for (long seed = 1; seed <= 2; seed++) {
            rows.add(row(epsilon, CDP, seed, 1.0));
            rows.add(row(epsilon, LDP, seed, 2.0));
            rows.add(row(epsilon, DECOR, seed, decorGap));
        }
        return new DecorSummary(new SyntheticDecorTask(1), rows, List.of(CDP, LDP, DECOR), List.of(epsilon), false, 1e-5, 100,
                2, 1, List.of(1.0), NoiseKind.SEEDED, "--task synthetic");
    }

    private static DecorReproduction.Row row(double epsilon, DecorSetting setting, long seed, double gap) {
        return new DecorReproduction.Row(epsilon, setting, seed, 1.0, 2.0, 1.0, 0.1, epsilon, Double.NaN, gap);
    }
}
