package org.dpdl4j.runtime.options;

import static org.dpdl4j.runtime.options.ResumeRule.IDENTITY;
import static org.dpdl4j.runtime.options.ResumeRule.MECHANISM;

import org.dpdl4j.graph.TopologySpec;

/**
 * How the parties of a multi-party run are laid out, declared once for every family that reads them: the graph and
 * its number of nodes (the decentralized family, DP-RECAL and its gossip baselines), and the number of machines that
 * hold the data (the federated family and the random walk).
 */
public final class PartyOptions {
    private PartyOptions() {
    }

    public static final RunOption<String> TOPOLOGY = RunOption.of("topology", "T",
            ValueType.checked("ring, torus, complete, star, path, regular:D, erdos-renyi:P, k-out:K or file:PATH",
                    t -> TopologySpec.parse(t).name()), MECHANISM,
            "Communication graph: ring, torus, complete, star, path, regular:D, erdos-renyi:P, k-out:K or file:PATH; default ring.");
    public static final RunOption<String> NODES = RunOption.of("nodes", "N",
            ValueType.checked("a whole number >= 1, or RxC for a torus", PartyOptions::nodeCount), IDENTITY,
            "Number of nodes (RxC for a torus); default 16 (8 agents for recal, pg-extra, nids and their variants).");

    public static final RunOption<Long> MACHINES = RunOption.of("machines", "M", ValueType.integer(1, 1_000_000), IDENTITY,
            "Number of machines (clients, parties) holding the training data; default 10.");

    static String nodeCount(String text) {
        String t = text.toLowerCase(java.util.Locale.ROOT);
        String[] parts = t.split("x", -1);
        try {
            long total = 1;
            for (String p : parts) {
                int v = Integer.parseInt(p.strip());
                if (v < 1) {
                    throw new NumberFormatException();
                }
                total *= v;
            }
            if (parts.length > 2 || total > Integer.MAX_VALUE) {
                throw new NumberFormatException();
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be a whole number >= 1, or RxC for a torus (e.g. 4x4)");
        }
        return t;
    }
}
