package org.dpdl4j.protocol.central;

import java.util.List;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolProvider;

/** Registers central training: {@code sgd} and {@code dp-sgd}. */
public final class CentralProtocols implements ProtocolProvider {

    @Override
    public List<Protocol> protocols() {
        return List.of(new SgdProtocol(), new DpSgdProtocol());
    }
}
