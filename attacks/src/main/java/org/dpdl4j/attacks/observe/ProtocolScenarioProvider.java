package org.dpdl4j.attacks.observe;

import java.util.List;

/**
 * Supplies tapped runs written for particular protocols ({@link ProtocolScenario}s) through
 * {@link java.util.ServiceLoader}: list the provider's class in
 * {@code META-INF/services/org.dpdl4j.attacks.observe.ProtocolScenarioProvider}. Each run must name a registered
 * protocol and give exactly that protocol's declared observers ({@link ProtocolScenarios} checks both); a
 * protocol without one is attacked through its declared observers by a {@link DeclaredObserverRun}.
 */
public interface ProtocolScenarioProvider {

    /** The tapped runs, in the order attack reports list them. */
    List<ProtocolScenario> scenarios();
}
