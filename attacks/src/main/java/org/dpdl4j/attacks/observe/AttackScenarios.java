package org.dpdl4j.attacks.observe;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/** The scenarios the attack command offers, by protocol name. Register a new protocol's scenario here. */
public final class AttackScenarios {
    private static final Map<String, AttackScenario> BY_NAME = new LinkedHashMap<>();

    static {
        register(new FedAvgScenario());
        register(new CentralGradientScenario());
    }

    private AttackScenarios() {
    }

    private static void register(AttackScenario scenario) {
        BY_NAME.put(scenario.algorithm(), scenario);
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
