package org.dpdl4j.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.junit.jupiter.api.Test;

/** DP-SGD settings by name: the same record as the positional factories, and every missing setting named. */
class DpSgdConfigBuilderTest {

    @Test
    void namedSettingsAreThePositionalOnes() {
        assertEquals(DpSgdConfig.forTarget(1.0, 3.0, 1e-5, 256, 3), DpSgdConfig.builder()
                .epochs(3).batchSize(256).delta(1e-5).targetEpsilon(3.0).clipNorm(1.0).build());
        assertEquals(DpSgdConfig.withNoise(0.5, 1.1, 1e-6, 64, 2.5), DpSgdConfig.builder()
                .clipNorm(0.5).noiseMultiplier(1.1).delta(1e-6).batchSize(64).epochs(2.5).build());
        DpSgdConfig fixed = DpSgdConfig.builder().clipNorm(1).targetEpsilon(2).delta(1e-5).batchSize(32).epochs(1)
                .sampling(SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT).epsilonBudget(4).build();
        assertEquals(SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT, fixed.sampling());
        assertEquals(4, fixed.epsilonBudget());
    }

    @Test
    void aMissingSettingIsNamedWithWhatToGive() {
        assertMessage(() -> DpSgdConfig.builder().targetEpsilon(2).delta(1e-5).batchSize(32).epochs(1).build(),
                "needs clipNorm(C)");
        assertMessage(() -> DpSgdConfig.builder().clipNorm(1).delta(1e-5).batchSize(32).epochs(1).build(),
                "needs targetEpsilon(epsilon)");
        assertMessage(() -> DpSgdConfig.builder().clipNorm(1).targetEpsilon(2).noiseMultiplier(1).delta(1e-5).batchSize(32)
                .epochs(1).build(), "both targetEpsilon(2.0) and noiseMultiplier(1.0)");
        assertMessage(() -> DpSgdConfig.builder().clipNorm(1).targetEpsilon(2).batchSize(32).epochs(1).build(), "needs delta(d)");
        assertMessage(() -> DpSgdConfig.builder().clipNorm(1).targetEpsilon(2).delta(1e-5).epochs(1).build(), "needs batchSize(b)");
        assertMessage(() -> DpSgdConfig.builder().clipNorm(1).targetEpsilon(2).delta(1e-5).batchSize(32).build(), "needs epochs(n)");
        assertMessage(() -> DpSgdConfig.builder().clipNorm(-1).targetEpsilon(2).delta(1e-5).batchSize(32).epochs(1).build(),
                "clip norm must be a positive finite number, got -1.0");
    }

    private static void assertMessage(org.junit.jupiter.api.function.Executable build, String part) {
        String m = assertThrows(IllegalArgumentException.class, build).getMessage();
        assertTrue(m.contains(part), m);
    }
}
