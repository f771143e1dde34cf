package org.dpdl4j.experiments.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpdl4j.attacks.observe.DeclaredObserverRun;
import org.dpdl4j.attacks.observe.ProtocolScenario;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.junit.jupiter.api.Test;

/** The campaign's protocols are the registry's, by the registry's names. */
class CampaignProtocolsTest {

    @Test
    void everyTappedRunIsARegisteredProtocolOfTheSamePrivacy() {
        ProtocolRegistry registry = ProtocolRegistry.standard();
        for (ProtocolScenario p : CampaignProtocols.all()) {
            assertTrue(registry.contains(p.algorithm()), p.algorithm() + " is not a registered protocol");
            assertEquals(registry.get(p.algorithm()).isPrivate(), p.isPrivate(), p.algorithm());
        }
    }

    /**
     * The library's tapped runs keep the order of every report so far; after them come the protocols attacked
     * through their declared observers alone (here the test protocol the attacks module's test jar registers).
     */
    @Test
    void theProtocolsAreListedInTheOrderOfEveryReportSoFar() {
        List<String> reported = List.of("sgd", "dp-sgd", "dsgd", "decor", "ldp", "cdp", "fedavg", "dp-fedavg-local",
                "dp-fedavg-central", "gopa", "mu2-sgd", "mu2-untrusted", "mu2-trusted", "recal", "dp-recal", "random-walk");
        List<ProtocolScenario> all = CampaignProtocols.all();
        assertEquals(reported, all.subList(0, reported.size()).stream().map(ProtocolScenario::algorithm).toList());
        for (ProtocolScenario p : all.subList(reported.size(), all.size())) {
            assertTrue(p instanceof DeclaredObserverRun, p.algorithm() + " comes after the library's tapped runs");
        }
    }

    @Test
    void namesAreCheckedAgainstTheRegistry() {
        assertEquals(List.of("dsgd", "decor"), CampaignProtocols.named(List.of("decor", "dsgd")).stream()
                .map(ProtocolScenario::algorithm).toList(), "in the campaign's order");
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> CampaignProtocols.named(List.of("gossip-magic")));
        assertTrue(unknown.getMessage().contains("unknown protocol 'gossip-magic'") && unknown.getMessage().contains("decor"),
                unknown.getMessage());
        IllegalArgumentException untapped = assertThrows(IllegalArgumentException.class,
                () -> CampaignProtocols.named(List.of("model-propagation")));
        assertTrue(untapped.getMessage().contains("'model-propagation' has no tapped run"), untapped.getMessage());
    }
}
