package org.dpdl4j.protocol.decentralized;

import static org.dpdl4j.runtime.options.ResumeRule.FREE;
import static org.dpdl4j.runtime.options.ResumeRule.IDENTITY;
import static org.dpdl4j.runtime.options.ResumeRule.MECHANISM;

import org.dpdl4j.graph.TopologySpec;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.ValueType;

/** The options of the decentralized protocols (D-SGD, Decor, LDP, CDP). */
public final class DecentralizedOptions {
    private DecentralizedOptions() {
    }

    public static final RunOption<String> TOPOLOGY = RunOption.of("topology", "T",
            ValueType.checked("ring, torus, complete, star, path, regular:D, erdos-renyi:P, k-out:K or file:PATH",
                    t -> TopologySpec.parse(t).name()), MECHANISM,
            "Communication graph: ring, torus, complete, star, path, regular:D, erdos-renyi:P, k-out:K or file:PATH; default ring.");
    public static final RunOption<String> NODES = RunOption.of("nodes", "N",
            ValueType.checked("a whole number >= 1, or RxC for a torus", DecentralizedOptions::nodeCount), IDENTITY,
            "Number of nodes (RxC for a torus); default 16.");
    public static final RunOption<String> ADVERSARY = RunOption.of("adversary", "A",
            ValueType.checked("eavesdropper, curious or colluding:Q", t -> Adversary.parse(t).name()), MECHANISM,
            "Who Decor's guarantee holds against: eavesdropper (sees every message), curious (any one node, with its"
                    + " pairwise secrets) or colluding:Q (any Q nodes together); default eavesdropper.");
    public static final RunOption<String> UNIT = RunOption.of("unit", "U", ValueType.choice("user", "example"), IDENTITY,
            "Protected unit: example (per-example clipping) or user (each node's whole dataset; its local gradient is"
                    + " clipped).");
    public static final RunOption<Double> SIGMA_CDP = RunOption.of("sigma-cdp", "S", ValueType.realAbove(0, 1e12), MECHANISM,
            "Std of each node's private noise, instead of calibrating from --epsilon.");
    public static final RunOption<Double> SIGMA_COR = RunOption.of("sigma-cor", "S", ValueType.realAtLeast(0, 1e12), MECHANISM,
            "Std of Decor's pairwise noise, with --sigma-cdp, instead of calibrating from --epsilon.");
    public static final RunOption<String> NOISE_PAIR = RunOption.of("noise-pair", "P", ValueType.choice("smallest", "middle", "largest"),
            MECHANISM, "Which calibrated Decor noise pair to use: the smallest, middle or largest sigma_cdp; default smallest.");
    public static final RunOption<Double> LR_DECAY = RunOption.of("lr-decay", "T0", ValueType.realAtLeast(0, 1e12), FREE,
            "Learning rate eta_0 / (1 + t / T0); 0 for a constant rate.");
    public static final RunOption<Boolean> REFERENCE_COMPAT = RunOption.of("reference-compat", "", ValueType.flag(), MECHANISM,
            "Decor only: reproduce the reference code's deviations (pairwise noise drawn once and scaled by W_ij). Not the"
                    + " paper's algorithm, and not covered by the ledger's epsilon.");

    /** Checks a node count: a whole number, or RxC. */
    private static String nodeCount(String text) {
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
