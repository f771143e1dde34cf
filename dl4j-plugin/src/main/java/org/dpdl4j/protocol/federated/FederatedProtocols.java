package org.dpdl4j.protocol.federated;

import java.util.List;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolProvider;

/**
 * Registers the federated protocols: {@code mu2-sgd}, {@code mu2-untrusted}, {@code mu2-trusted}, {@code fedavg},
 * {@code dp-fedavg-local}, {@code dp-fedavg-central}, {@code gopa}.
 */
public final class FederatedProtocols implements ProtocolProvider {

    @Override
    public List<Protocol> protocols() {
        return List.of(new Mu2Protocol(null), new Mu2Protocol(ServerTrust.UNTRUSTED), new Mu2Protocol(ServerTrust.TRUSTED),
                new FedAvgProtocol(FedAvgVariant.FEDAVG), new FedAvgProtocol(FedAvgVariant.DP_LOCAL),
                new FedAvgProtocol(FedAvgVariant.DP_CENTRAL), new FedAvgProtocol(FedAvgVariant.GOPA));
    }
}
