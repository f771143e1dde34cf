package org.dpdl4j.demo.dpgd;

import java.util.List;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolProvider;

/** Registers {@code dp-gd}; listed in {@code META-INF/services/org.dpdl4j.runtime.ProtocolProvider}. */
public final class DpGdProtocols implements ProtocolProvider {
    @Override
    public List<Protocol> protocols() {
        return List.of(new DpGdProtocol());
    }
}
