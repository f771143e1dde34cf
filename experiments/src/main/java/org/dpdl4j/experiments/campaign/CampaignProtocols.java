package org.dpdl4j.experiments.campaign;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpdl4j.attacks.observe.ProtocolScenario;
import org.dpdl4j.attacks.observe.ProtocolScenarios;
import org.dpdl4j.runtime.ProtocolRegistry;

/**
 * The tapped protocol runs a campaign can attack, by name, in the order reports list them: every registered
 * protocol that declares observers, through {@link ProtocolScenarios} (the library's tapped runs first, in the
 * order of every report so far, then protocols attacked through their declarations alone, in registry order).
 */
public final class CampaignProtocols {
    private CampaignProtocols() {
    }

    /** Every attackable protocol's run, in report order. */
    public static List<ProtocolScenario> all() {
        return ProtocolScenarios.standard().all();
    }

    /** The names of {@link #all()}, e.g. {@code decor}. */
    public static List<String> names() {
        return all().stream().map(ProtocolScenario::algorithm).toList();
    }

    /**
     * The protocols with the given names, in the order of {@link #all()}. Names are those of the protocol
     * registry: a registered protocol that declares no observers is refused as such, not as unknown.
     *
     * @throws IllegalArgumentException naming an unknown or untapped protocol and listing the tapped ones
     */
    public static List<ProtocolScenario> named(List<String> names) {
        Map<String, ProtocolScenario> byName = new LinkedHashMap<>();
        for (ProtocolScenario p : all()) {
            byName.put(p.algorithm(), p);
        }
        ProtocolRegistry registry = ProtocolScenarios.standard().registry();
        for (String name : names) {
            if (!registry.contains(name)) {
                throw new IllegalArgumentException("unknown protocol '" + name + "'; attackable protocols: "
                        + String.join(", ", byName.keySet()));
            }
            if (!byName.containsKey(name)) {
                throw new IllegalArgumentException("protocol '" + name + "' has no tapped run to attack yet (it declares"
                        + " no observers); attackable protocols: " + String.join(", ", byName.keySet()));
            }
        }
        List<ProtocolScenario> out = new ArrayList<>();
        for (var e : byName.entrySet()) {
            if (names.contains(e.getKey())) {
                out.add(e.getValue());
            }
        }
        return out;
    }
}
