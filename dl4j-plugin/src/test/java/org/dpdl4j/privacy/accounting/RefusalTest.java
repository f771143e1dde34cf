package org.dpdl4j.privacy.accounting;

import static org.dpdl4j.privacy.accounting.NeighbouringRelation.ADD_OR_REMOVE_ONE;
import static org.dpdl4j.privacy.accounting.NeighbouringRelation.REPLACE_ONE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Every unsupported combination is refused with a message that names it, and the ledger is untouched. */
class RefusalTest {
    private static final GaussianEvent GAUSSIAN = new GaussianEvent(1.0);
    private static final PoissonSampledEvent POISSON = new PoissonSampledEvent(0.01, GAUSSIAN);
    private static final SampledWithoutReplacementEvent FIXED = new SampledWithoutReplacementEvent(1000, 10, GAUSSIAN);

    private static void assertRefused(PrivacyAccountant acc, DpEvent event, String... phrases) {
        assertFalse(acc.supports(event), event.toString());
        double[] before = acc instanceof RdpAccountant r ? r.rdp() : new double[] {((ZCdpAccountant) acc).rho()};
        int ledgerSize = acc.ledger().size();
        UnsupportedEventException e = assertThrows(UnsupportedEventException.class, () -> acc.compose(event));
        for (String phrase : phrases) {
            assertTrue(e.getMessage().contains(phrase), "message lacks '" + phrase + "': " + e.getMessage());
        }
        assertTrue(e.getMessage().contains("Supported:"), e.getMessage());
        assertEquals(ledgerSize, acc.ledger().size());
        double[] after = acc instanceof RdpAccountant r ? r.rdp() : new double[] {((ZCdpAccountant) acc).rho()};
        assertArrayEquals(before, after, 0.0);
        assertThrows(UnsupportedEventException.class, () -> acc.compose(event, 5));
    }

    @Test
    void rdpAccountantRefusesSamplingUnderTheWrongRelation() {
        RdpAccountant replace = new RdpAccountant(REPLACE_ONE).compose(GAUSSIAN);
        assertRefused(replace, POISSON, "PoissonSampledEvent", "ADD_OR_REMOVE_ONE only", "RdpAccountant(REPLACE_ONE)");
        RdpAccountant add = new RdpAccountant(ADD_OR_REMOVE_ONE).compose(GAUSSIAN);
        assertRefused(add, FIXED, "SampledWithoutReplacementEvent", "REPLACE_ONE only");
        assertTrue(replace.supports(FIXED));
        assertTrue(add.supports(POISSON));
    }

    @Test
    void rdpAccountantRefusesNestedSamplingAndNonGaussianSamples() {
        RdpAccountant add = new RdpAccountant(ADD_OR_REMOVE_ONE);
        assertRefused(add, new PoissonSampledEvent(0.5, POISSON), "nested sampling");
        assertRefused(add, new PoissonSampledEvent(0.5, new LaplaceEvent(1)), "not for LaplaceEvent");
        assertRefused(add, new PoissonSampledEvent(0.5, new SelfComposedEvent(GAUSSIAN, 3)), "SelfComposedEvent");
        assertRefused(add, new PoissonSampledEvent(0.5, new ZCdpEvent(0.1)), "ZCdpEvent");
        RdpAccountant replace = new RdpAccountant(REPLACE_ONE);
        assertRefused(replace, new SampledWithoutReplacementEvent(10, 5, FIXED), "nested sampling");
        assertRefused(replace, new SampledWithoutReplacementEvent(10, 5, ComposedEvent.of(GAUSSIAN)), "ComposedEvent");
    }

    @Test
    void refusalInsideACompositionNamesTheOffendingElement() {
        RdpAccountant replace = new RdpAccountant(REPLACE_ONE);
        ComposedEvent mixed = ComposedEvent.of(GAUSSIAN, new SelfComposedEvent(POISSON, 100));
        assertRefused(replace, mixed, "its element SelfComposedEvent", "PoissonSampledEvent");
        assertRefused(replace, new SelfComposedEvent(mixed, 2), "ADD_OR_REMOVE_ONE only");
        UnsupportedEventException e = assertThrows(UnsupportedEventException.class, () -> replace.curve(POISSON));
        assertSame(POISSON, e.event());
    }

    @Test
    void zcdpAccountantRefusesEverySampledEvent() {
        ZCdpAccountant add = new ZCdpAccountant(ADD_OR_REMOVE_ONE).compose(GAUSSIAN);
        assertRefused(add, POISSON, "no tight amplification", "ZCdpAccountant(ADD_OR_REMOVE_ONE)", "PoissonSampledEvent");
        assertRefused(new ZCdpAccountant(REPLACE_ONE), FIXED, "no tight amplification");
        assertRefused(add, ComposedEvent.of(new ZCdpEvent(0.1), new SelfComposedEvent(POISSON, 3)), "its element");
        assertTrue(add.supports(ComposedEvent.of(new LaplaceEvent(1), new CorrelatedGaussianEvent(1, 1))));
    }
}
