package org.dpdl4j.protocol.recal;

import java.util.Arrays;
import java.util.List;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolProvider;

/** Registers RECAL, DP-RECAL, the synchronous AFBS iteration, PG-EXTRA, NIDS and their private variants. */
public final class PrimalDualProtocols implements ProtocolProvider {
    @Override
    public List<Protocol> protocols() {
        return Arrays.stream(PrimalDualAlgorithm.values()).<Protocol>map(PrimalDualProtocol::new).toList();
    }
}
