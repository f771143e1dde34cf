package org.dpdl4j.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import org.dpdl4j.runtime.options.RunOption;

/**
 * The protocols by name. {@link #standard()} finds every {@link ProtocolProvider} on the class path, the library's
 * own (central, decentralized, federated and relay protocols) and any a user adds; names and option declarations
 * are checked for clashes when the registry is built.
 */
public final class ProtocolRegistry {
    private static volatile ProtocolRegistry standard;

    private final Map<String, Protocol> protocols;
    private final Map<String, RunOption<?>> options;

    private ProtocolRegistry(List<Protocol> list) {
        Map<String, Protocol> byName = new LinkedHashMap<>();
        Map<String, RunOption<?>> byOption = new LinkedHashMap<>();
        for (Protocol p : list) {
            Objects.requireNonNull(p, "protocol");
            if (!p.name().matches("[a-z][a-z0-9]*(-[a-z0-9]+)*")) {
                throw new IllegalArgumentException("protocol name '" + p.name() + "' must be lower-case words joined by '-'");
            }
            Protocol clash = byName.putIfAbsent(p.name(), p);
            if (clash != null) {
                throw new IllegalArgumentException("two protocols are named '" + p.name() + "': " + clash.getClass().getName()
                        + " and " + p.getClass().getName());
            }
            for (RunOption<?> o : p.options()) {
                RunOption<?> other = byOption.putIfAbsent(o.name(), o);
                if (other != null && !other.equals(o)) {
                    throw new IllegalArgumentException("protocol " + p.name() + " declares " + o.flag()
                            + " differently from another protocol; declare a shared option once and reuse it");
                }
            }
        }
        this.protocols = Collections.unmodifiableMap(byName);
        this.options = Collections.unmodifiableMap(byOption);
    }

    /** A registry of exactly these protocols. */
    public static ProtocolRegistry of(List<Protocol> protocols) {
        return new ProtocolRegistry(protocols);
    }

    /** Every protocol whose provider is on the class path (found once, then cached). */
    public static ProtocolRegistry standard() {
        ProtocolRegistry r = standard;
        if (r == null) {
            synchronized (ProtocolRegistry.class) {
                r = standard;
                if (r == null) {
                    List<Protocol> all = new ArrayList<>();
                    for (ProtocolProvider provider : ServiceLoader.load(ProtocolProvider.class, ProtocolRegistry.class.getClassLoader())) {
                        all.addAll(provider.protocols());
                    }
                    r = new ProtocolRegistry(all);
                    standard = r;
                }
            }
        }
        return r;
    }

    /**
     * The protocol with this name.
     *
     * @throws IllegalArgumentException naming the known protocols
     */
    public Protocol get(String name) {
        Protocol p = name == null ? null : protocols.get(name.trim().toLowerCase(Locale.ROOT));
        if (p == null) {
            throw new IllegalArgumentException("unknown algorithm '" + name + "'; known: " + String.join(", ", names()));
        }
        return p;
    }

    /** Whether a protocol has this name. */
    public boolean contains(String name) {
        return name != null && protocols.containsKey(name.trim().toLowerCase(Locale.ROOT));
    }

    /** Every protocol, in registration order. */
    public List<Protocol> all() {
        return List.copyOf(protocols.values());
    }

    /** Every name, in registration order. */
    public List<String> names() {
        return List.copyOf(protocols.keySet());
    }

    /** Every option some protocol reads, each declared once. */
    public List<RunOption<?>> options() {
        return List.copyOf(options.values());
    }

    /** The protocols that read an option. */
    public List<Protocol> reading(RunOption<?> option) {
        return protocols.values().stream().filter(p -> p.options().contains(option)).toList();
    }

    /** The families, in order of first appearance. */
    public List<String> families() {
        return protocols.values().stream().map(Protocol::family).distinct().toList();
    }
}
