package org.dpdl4j.attacks.observe;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolRegistry;

/**
 * The scenarios the attack command offers, by protocol name. Register a new protocol's scenario here. Each is
 * checked against the protocol registry when registered: its name is a registered protocol's or a family's
 * ({@code central} simulates the release of {@code sgd} and {@code dp-sgd}), and each of its observers is one such
 * a protocol declares ({@link org.dpdl4j.runtime.Protocol#observers()}).
 */
public final class AttackScenarios {
    private static final Map<String, AttackScenario> BY_NAME = new LinkedHashMap<>();

    static {
        register(new FedAvgScenario());
        register(new CentralGradientScenario());
    }

    private AttackScenarios() {
    }

    private static void register(AttackScenario scenario) {
        requireRegistered(scenario, ProtocolRegistry.standard());
        BY_NAME.put(scenario.algorithm(), scenario);
    }

    /**
     * Checks a scenario against a registry.
     *
     * @throws IllegalStateException naming a name that is neither a registered protocol nor a family, or an observer
     *                               none of its protocols declares
     */
    static void requireRegistered(AttackScenario scenario, ProtocolRegistry registry) {
        String name = scenario.algorithm();
        List<Protocol> protocols = registry.contains(name) ? List.of(registry.get(name))
                : registry.all().stream().filter(p -> p.family().equals(name)).toList();
        if (protocols.isEmpty()) {
            throw new IllegalStateException("the attack scenario '" + name + "' is neither a registered protocol nor a"
                    + " family; name it after one of " + String.join(", ", registry.names()));
        }
        for (String observer : scenario.observers()) {
            boolean declared = protocols.stream().flatMap(p -> p.observers().stream())
                    .anyMatch(d -> d.name().equals(observer));
            if (!declared) {
                throw new IllegalStateException("the attack scenario '" + name + "' offers the observer '" + observer
                        + "', which none of " + protocols.stream().map(Protocol::name).toList() + " declares; declare it"
                        + " in the protocol's observers()");
            }
        }
    }

    /** The supported protocol names, in registration order. */
    public static List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }

    /**
     * The scenario of a protocol.
     *
     * @throws IllegalArgumentException naming the supported protocols
     */
    public static AttackScenario of(String algorithm) {
        Objects.requireNonNull(algorithm, "algorithm must not be null");
        AttackScenario scenario = BY_NAME.get(algorithm.trim().toLowerCase(Locale.ROOT));
        if (scenario == null) {
            throw new IllegalArgumentException("unknown algorithm '" + algorithm + "' for attacks; supported: "
                    + String.join(", ", names()));
        }
        return scenario;
    }

    static void requireObserver(AttackScenario scenario, String observer) {
        if (!scenario.observers().contains(observer)) {
            throw new IllegalArgumentException("unknown observer '" + observer + "' for algorithm "
                    + scenario.algorithm() + "; supported: " + String.join(", ", scenario.observers()));
        }
    }
}
