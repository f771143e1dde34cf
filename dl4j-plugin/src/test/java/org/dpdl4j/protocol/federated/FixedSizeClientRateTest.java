package org.dpdl4j.protocol.federated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Fixed-size client sampling takes exactly q N clients: a rate that picks a whole number is taken, another refused. */
class FixedSizeClientRateTest {

    @Test
    void aRateOfAWholeNumberOfClientsIsTakenExactly() {
        assertEquals(3, fixed(0.3, 10));
        assertEquals(7, fixed(0.7, 10));
        assertEquals(1, fixed(0.1, 10));
        assertEquals(1, fixed(1.0 / 3, 3));
        assertEquals(29, fixed(0.29, 100));
        assertInstanceOf(ClientSampling.Everyone.class, FedAvgRunSpec.sampling(1.0, true, 10));
        assertInstanceOf(ClientSampling.Poisson.class, FedAvgRunSpec.sampling(0.25, false, 10), "Poisson takes any rate");
    }

    @Test
    void anotherRateIsRefusedNamingTheNearestValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FedAvgRunSpec.sampling(0.25, true, 10));
        assertTrue(e.getMessage().contains("gives 2.5, not a whole number from 1 to 9") && e.getMessage().contains("e.g. 0.2 or 0.3"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> FedAvgRunSpec.sampling(0.05, true, 10));
        assertTrue(e.getMessage().contains("e.g. 0.1"), "below one client: the smallest valid rate; " + e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> FedAvgRunSpec.sampling(0.5, true, 1));
        assertTrue(e.getMessage().contains("1 client can only take it in every round"), e.getMessage());
    }

    private static int fixed(double rate, int clients) {
        return ((ClientSampling.FixedSize) FedAvgRunSpec.sampling(rate, true, clients)).count();
    }
}
