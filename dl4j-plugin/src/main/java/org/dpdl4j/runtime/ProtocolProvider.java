package org.dpdl4j.runtime;

import java.util.List;

/**
 * Supplies protocols to the {@link ProtocolRegistry} through {@link java.util.ServiceLoader}: list the provider's
 * class in {@code META-INF/services/org.dpdl4j.runtime.ProtocolProvider}.
 */
public interface ProtocolProvider {

    /** The protocols, in the order help lists them. */
    List<Protocol> protocols();
}
