package org.dpdl4j.protocol.personalized;

import java.util.Arrays;
import java.util.List;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolProvider;

/** Registers personalized CD, its private update, model propagation and the gossip ADMM baseline. */
public final class PersonalizedProtocols implements ProtocolProvider {
    @Override
    public List<Protocol> protocols() {
        return Arrays.stream(PersonalizedProtocol.Kind.values()).<Protocol>map(PersonalizedProtocol::new).toList();
    }
}
