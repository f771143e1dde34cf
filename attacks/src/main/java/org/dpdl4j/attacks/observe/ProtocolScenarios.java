package org.dpdl4j.attacks.observe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.dpdl4j.runtime.ObserverDeclaration;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolRegistry;

/**
 * The tapped run of every registered protocol that declares observers ({@link Protocol#observers()}): the run a
 * {@link ProtocolScenarioProvider} supplies for it, or else a {@link DeclaredObserverRun} that attacks it through
 * the releases its run hands out. A new protocol thus reaches the attack campaign with nothing but its registry
 * line and its declarations. Built once per registry, it refuses a supplied run whose protocol is not registered,
 * whose observers differ from the protocol's declarations, or whose privacy differs from the protocol's.
 */
public final class ProtocolScenarios {
    private static volatile ProtocolScenarios standard;

    private final ProtocolRegistry registry;
    private final Map<String, ProtocolScenario> supplied;

    private ProtocolScenarios(ProtocolRegistry registry, List<ProtocolScenario> suppliedRuns) {
        this.registry = registry;
        Map<String, ProtocolScenario> byName = new LinkedHashMap<>();
        for (ProtocolScenario run : suppliedRuns) {
            String name = run.algorithm();
            if (!registry.contains(name)) {
                throw new IllegalStateException("the tapped run " + run.getClass().getName() + " attacks '" + name
                        + "', which is not a registered protocol; register it or remove the run (registered: "
                        + String.join(", ", registry.names()) + ")");
            }
            Protocol protocol = registry.get(name);
            List<String> declared = protocol.observers().stream().map(ObserverDeclaration::name).toList();
            if (!declared.equals(run.observers())) {
                throw new IllegalStateException("the tapped run of " + name + " gives the observers " + run.observers()
                        + " but the protocol declares " + declared + "; make the protocol's observers() and the run's agree");
            }
            if (protocol.isPrivate() != run.isPrivate()) {
                throw new IllegalStateException("the tapped run of " + name + " is " + (run.isPrivate() ? "" : "not ")
                        + "private but the protocol is " + (protocol.isPrivate() ? "" : "not ") + "private");
            }
            ProtocolScenario clash = byName.putIfAbsent(name, run);
            if (clash != null) {
                throw new IllegalStateException("two tapped runs attack '" + name + "': " + clash.getClass().getName()
                        + " and " + run.getClass().getName() + "; supply one");
            }
        }
        this.supplied = byName;
    }

    /** The lookup of this registry with exactly these supplied runs. */
    public static ProtocolScenarios of(ProtocolRegistry registry, List<ProtocolScenario> suppliedRuns) {
        return new ProtocolScenarios(registry, suppliedRuns);
    }

    /** The standard registry's protocols with every provider's runs on the class path (found once, then cached). */
    public static ProtocolScenarios standard() {
        ProtocolScenarios s = standard;
        if (s == null) {
            synchronized (ProtocolScenarios.class) {
                s = standard;
                if (s == null) {
                    List<ProtocolScenario> runs = new ArrayList<>();
                    for (ProtocolScenarioProvider provider : ServiceLoader.load(ProtocolScenarioProvider.class,
                            ProtocolScenarios.class.getClassLoader())) {
                        runs.addAll(provider.scenarios());
                    }
                    s = new ProtocolScenarios(ProtocolRegistry.standard(), runs);
                    standard = s;
                }
            }
        }
        return s;
    }

    /** The registry the runs belong to. */
    public ProtocolRegistry registry() {
        return registry;
    }

    /**
     * The tapped run of a protocol: the supplied one, else a {@link DeclaredObserverRun} when the protocol declares
     * observers; empty when it declares none.
     */
    public Optional<ProtocolScenario> of(Protocol protocol) {
        ProtocolScenario run = supplied.get(protocol.name());
        if (run != null) {
            return Optional.of(run);
        }
        return protocol.observers().isEmpty() ? Optional.empty() : Optional.of(new DeclaredObserverRun(protocol));
    }

    /** The supplied runs, in their providers' order. */
    public List<ProtocolScenario> supplied() {
        return List.copyOf(supplied.values());
    }

    /**
     * Every attackable protocol's run, in the order reports list them: the supplied runs in their providers' order
     * (the order of every report written so far), then the protocols attacked through their declarations alone,
     * in registry order.
     */
    public List<ProtocolScenario> all() {
        List<ProtocolScenario> out = new ArrayList<>(supplied.values());
        for (Protocol p : registry.all()) {
            if (!supplied.containsKey(p.name()) && !p.observers().isEmpty()) {
                out.add(new DeclaredObserverRun(p));
            }
        }
        return out;
    }
}
