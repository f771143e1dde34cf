package org.dpdl4j.protocol.muffliato;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.federated.FederatedFixtures;
import org.junit.jupiter.api.Test;

/** Muffliato-GD calibrates its local noise by bisection on the named accountant and prices its ledger with it. */
class MuffliatoAccountantChoiceTest {
    private static MuffliatoGd run(String pricing, double target) {
        return MuffliatoGd.builder().model(FederatedFixtures.softmax(4, 3, 5)).graph(Topologies.ring(6))
                .nodeData(FederatedFixtures.softmaxClients(6, 5, 4, 3, 7), false).rounds(8).gossipSteps(2).stepSize(0.3).clip(0.5)
                .noiseKind(NoiseKind.SEEDED).seed(3).accountant(AccountantFactory.named(pricing)).target(target, 1e-5).build();
    }

    @Test
    void theLocalTargetIsMetAsTheNamedAccountantPricesIt() {
        for (String pricing : AccountantFactory.NAMES) {
            try (MuffliatoGd gd = run(pricing, 2)) {
                assertEquals(pricing, gd.ledger().orElseThrow().accounting().method());
                for (int r = 0; r < 8; r++) {
                    gd.step();
                }
                double spent = gd.ledger().orElseThrow().epsilon();
                assertTrue(spent <= 2 && spent > 1.99, pricing + ": " + spent);
            }
        }
    }
}
