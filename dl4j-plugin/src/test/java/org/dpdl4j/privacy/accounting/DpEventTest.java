package org.dpdl4j.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class DpEventTest {

    private static void assertRejected(Executable construction, String... phrases) {
        Exception e = assertThrows(RuntimeException.class, construction);
        for (String phrase : phrases) {
            assertTrue(e.getMessage().contains(phrase), "message lacks '" + phrase + "': " + e.getMessage());
        }
    }

    @Test
    void constructorsRejectOutOfDomainArgumentsWithTheirNames() {
        assertRejected(() -> new GaussianEvent(-1), "GaussianEvent", "noiseMultiplier", "-1");
        assertRejected(() -> new GaussianEvent(Double.NaN), "noiseMultiplier");
        assertRejected(() -> new LaplaceEvent(-0.5), "LaplaceEvent", "noiseMultiplier");
        assertRejected(() -> new PoissonSampledEvent(1.5, new GaussianEvent(1)), "samplingProbability", "[0, 1]");
        assertRejected(() -> new PoissonSampledEvent(-0.1, new GaussianEvent(1)), "samplingProbability");
        assertRejected(() -> new PoissonSampledEvent(0.5, null), "must not be null");
        assertRejected(() -> new SampledWithoutReplacementEvent(0, 0, new GaussianEvent(1)), "sourceSize");
        assertRejected(() -> new SampledWithoutReplacementEvent(10, 11, new GaussianEvent(1)), "sampleSize", "10");
        assertRejected(() -> new SelfComposedEvent(new GaussianEvent(1), -2), "count", "-2");
        assertRejected(() -> new ComposedEvent(Arrays.asList(new NoOpEvent(), null)), "index 1");
        assertRejected(() -> new ZCdpEvent(-1e-3), "rho");
        assertRejected(() -> new CorrelatedGaussianEvent(-1, 1), "kappa");
        assertRejected(() -> new CorrelatedGaussianEvent(1, Double.POSITIVE_INFINITY), "contributionNorm");
    }

    @Test
    void eventsAreImmutableValues() {
        List<DpEvent> source = new ArrayList<>(List.of(new GaussianEvent(1), new NoOpEvent()));
        ComposedEvent composed = new ComposedEvent(source);
        source.add(new NonPrivateEvent());
        assertEquals(2, composed.events().size());
        assertThrows(UnsupportedOperationException.class, () -> composed.events().add(new NoOpEvent()));
        assertEquals(new PoissonSampledEvent(0.1, new GaussianEvent(2)), new PoissonSampledEvent(0.1, new GaussianEvent(2)));
        assertEquals(0.25, new SampledWithoutReplacementEvent(400, 100, new NoOpEvent()).samplingRatio(), 0.0);
        assertEquals(1.0 / (2.0 * Math.sqrt(0.25)), new CorrelatedGaussianEvent(0.25, 2.0).toGaussian().noiseMultiplier(),
                1e-15);
    }
}
