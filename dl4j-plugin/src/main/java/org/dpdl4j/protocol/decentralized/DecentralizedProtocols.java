package org.dpdl4j.protocol.decentralized;

import java.util.Arrays;
import java.util.List;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolProvider;

/** Registers the decentralized protocols: {@code dsgd}, {@code decor}, {@code ldp}, {@code cdp}. */
public final class DecentralizedProtocols implements ProtocolProvider {

    @Override
    public List<Protocol> protocols() {
        return Arrays.stream(DecentralizedAlgorithm.values()).<Protocol>map(DecentralizedProtocol::new).toList();
    }
}
