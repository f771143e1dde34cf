package org.dpdl4j.experiments.campaign;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpdl4j.attacks.observe.CentralDpSgdRun;
import org.dpdl4j.attacks.observe.FedAvgRun;
import org.dpdl4j.attacks.observe.DecentralizedRun;
import org.dpdl4j.attacks.observe.Mu2Run;
import org.dpdl4j.attacks.observe.ProtocolScenario;
import org.dpdl4j.attacks.observe.RandomWalkRun;
import org.dpdl4j.attacks.observe.RelayRecalRun;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.protocol.federated.ServerTrust;
import org.dpdl4j.runtime.ProtocolRegistry;

/** The tapped protocol runs a campaign can attack, by name, in the order reports list them. */
public final class CampaignProtocols {
    private CampaignProtocols() {
    }

    /**
     * Every protocol: central SGD and DP-SGD; D-SGD, Decor, LDP and CDP gossip; FedAvg, DP-FedAvg (local and
     * central), GOPA; mu^2-SGD and DP-mu^2-FL with an untrusted and a trusted server; RECAL and DP-RECAL (the linear
     * Lasso model of their papers, not the MLP); network-DP random-walk SGD.
     */
    public static List<ProtocolScenario> all() {
        return List.of(new CentralDpSgdRun(false), new CentralDpSgdRun(true),
                new DecentralizedRun(DecentralizedAlgorithm.DSGD), new DecentralizedRun(DecentralizedAlgorithm.DECOR),
                new DecentralizedRun(DecentralizedAlgorithm.LDP), new DecentralizedRun(DecentralizedAlgorithm.CDP),
                new FedAvgRun(FedAvgVariant.FEDAVG), new FedAvgRun(FedAvgVariant.DP_LOCAL),
                new FedAvgRun(FedAvgVariant.DP_CENTRAL), new FedAvgRun(FedAvgVariant.GOPA),
                Mu2Run.nonPrivate(), Mu2Run.of(ServerTrust.UNTRUSTED), Mu2Run.of(ServerTrust.TRUSTED),
                new RelayRecalRun(false), new RelayRecalRun(true), new RandomWalkRun());
    }

    /** The names of {@link #all()}, e.g. {@code decor}. */
    public static List<String> names() {
        return all().stream().map(ProtocolScenario::algorithm).toList();
    }

    /**
     * The protocols with the given names, in the order of {@link #all()}. Names are those of the protocol
     * registry: a registered protocol that has no tapped run yet is refused as such, not as unknown.
     *
     * @throws IllegalArgumentException naming an unknown or untapped protocol and listing the tapped ones
     */
    public static List<ProtocolScenario> named(List<String> names) {
        Map<String, ProtocolScenario> byName = new LinkedHashMap<>();
        for (ProtocolScenario p : all()) {
            byName.put(p.algorithm(), p);
        }
        ProtocolRegistry registry = ProtocolRegistry.standard();
        for (String name : names) {
            if (!registry.contains(name)) {
                throw new IllegalArgumentException("unknown protocol '" + name + "'; attackable protocols: "
                        + String.join(", ", byName.keySet()));
            }
            if (!byName.containsKey(name)) {
                throw new IllegalArgumentException("protocol '" + name + "' has no tapped run to attack yet;"
                        + " attackable protocols: " + String.join(", ", byName.keySet()));
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
