package org.dpdl4j.attacks.testprotocol;

import java.util.List;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolProvider;

/** Registers {@code cyclic-sgd}; listed in the test sources' {@code META-INF/services/org.dpdl4j.runtime.ProtocolProvider}. */
public final class CyclicSgdProtocols implements ProtocolProvider {
    @Override
    public List<Protocol> protocols() {
        return List.of(new CyclicSgdProtocol());
    }
}
