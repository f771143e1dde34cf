package org.dpdl4j.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class EnvelopeEventTest {
    private static final double[] ORDERS = {1.5, 2, 4, 8, 16, 32, 64};

    private static double[] curve(DpEvent event) {
        RdpAccountant a = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE, ORDERS);
        a.compose(event);
        return a.rdp();
    }

    @Test
    void itsCurveIsThePointwiseMaximumOfItsEvents() {
        // a few plain Gaussian releases against many sampled ones: the two curves cross, so neither dominates
        DpEvent plain = new SelfComposedEvent(new GaussianEvent(4), 3);
        DpEvent sampled = new SelfComposedEvent(new PoissonSampledEvent(0.01, new GaussianEvent(1)), 1000);
        double[] a = curve(plain);
        double[] b = curve(sampled);
        double[] envelope = curve(new EnvelopeEvent(List.of(plain, sampled)));
        boolean crossed = false;
        for (int i = 0; i < ORDERS.length; i++) {
            assertEquals(Math.max(a[i], b[i]), envelope[i], 0.0, "order " + ORDERS[i]);
            crossed |= (a[i] > b[i]) != (a[0] > b[0]);
        }
        assertTrue(crossed, "the test needs curves that cross");
    }

    @Test
    void itComposesLikeAnyEventAndOneEventIsItsOwnEnvelope() {
        DpEvent g = new GaussianEvent(2);
        assertSame(g, EnvelopeEvent.of(List.of(g, g)));
        double[] twice = curve(new SelfComposedEvent(new EnvelopeEvent(List.of(g, new GaussianEvent(3))), 2));
        double[] plain = curve(new SelfComposedEvent(g, 2));
        for (int i = 0; i < ORDERS.length; i++) {
            assertEquals(plain[i], twice[i], 1e-15);
        }
        assertThrows(IllegalArgumentException.class, () -> new EnvelopeEvent(List.of()));
        assertThrows(UnsupportedEventException.class, () -> new ZCdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE)
                .compose(new EnvelopeEvent(List.of(g, new GaussianEvent(3)))));
    }
}
