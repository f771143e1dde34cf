package org.dpdl4j.attacks.observe;

import java.util.List;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.protocol.federated.ServerTrust;

/**
 * The library's own tapped runs, in the order attack reports have always listed them: central SGD and DP-SGD;
 * D-SGD, Decor, LDP and CDP gossip; FedAvg, DP-FedAvg (local and central), GOPA; mu^2-SGD and DP-mu^2-FL with an
 * untrusted and a trusted server; RECAL and DP-RECAL (the linear Lasso model of their papers, not the MLP);
 * network-DP random-walk SGD.
 */
public final class LibraryScenarios implements ProtocolScenarioProvider {

    @Override
    public List<ProtocolScenario> scenarios() {
        return List.of(new CentralDpSgdRun(false), new CentralDpSgdRun(true),
                new DecentralizedRun(DecentralizedAlgorithm.DSGD), new DecentralizedRun(DecentralizedAlgorithm.DECOR),
                new DecentralizedRun(DecentralizedAlgorithm.LDP), new DecentralizedRun(DecentralizedAlgorithm.CDP),
                new FedAvgRun(FedAvgVariant.FEDAVG), new FedAvgRun(FedAvgVariant.DP_LOCAL),
                new FedAvgRun(FedAvgVariant.DP_CENTRAL), new FedAvgRun(FedAvgVariant.GOPA),
                Mu2Run.nonPrivate(), Mu2Run.of(ServerTrust.UNTRUSTED), Mu2Run.of(ServerTrust.TRUSTED),
                new RelayRecalRun(false), new RelayRecalRun(true), new RandomWalkRun());
    }
}
