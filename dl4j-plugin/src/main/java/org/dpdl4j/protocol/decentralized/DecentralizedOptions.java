package org.dpdl4j.protocol.decentralized;

import static org.dpdl4j.runtime.options.ResumeRule.FREE;
import static org.dpdl4j.runtime.options.ResumeRule.IDENTITY;
import static org.dpdl4j.runtime.options.ResumeRule.MECHANISM;

import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.ValueType;

/** The options of the decentralized protocols (D-SGD, Decor, LDP, CDP). */
public final class DecentralizedOptions {
    private DecentralizedOptions() {
    }

    public static final RunOption<String> ADVERSARY = RunOption.of("adversary", "A",
            ValueType.checked("eavesdropper, curious or colluding:Q", t -> Adversary.parse(t).name()), MECHANISM,
            "Who Decor's guarantee holds against: eavesdropper (sees every message), curious (any one node, with its"
                    + " pairwise secrets) or colluding:Q (any Q nodes together); default eavesdropper.");
    public static final RunOption<String> UNIT = RunOption.of("unit", "U", ValueType.choice("user", "example"), IDENTITY,
            "Protected unit: example (per-example clipping) or user (each node's whole dataset; its local gradient is"
                    + " clipped); default: the data set's, example on mnist and user elsewhere (the papers' settings).");
    public static final RunOption<Double> SIGMA_CDP = RunOption.of("sigma-cdp", "S", ValueType.realAbove(0, 1e12), MECHANISM,
            "Std of each node's private noise, instead of calibrating from --epsilon.");
    public static final RunOption<Double> SIGMA_COR = RunOption.of("sigma-cor", "S", ValueType.realAtLeast(0, 1e12), MECHANISM,
            "Std of Decor's pairwise noise, with --sigma-cdp, instead of calibrating from --epsilon.");
    public static final RunOption<String> NOISE_PAIR = RunOption.of("noise-pair", "P", ValueType.choice("smallest", "middle", "largest"),
            MECHANISM, "Which calibrated Decor noise pair to use: the smallest, middle or largest sigma_cdp of the three kept from"
                    + " the feasible pairs (the first, middle and last; fewer when fewer are feasible, and middle is then the"
                    + " second of two or the only one); default smallest. The run's description names the pair.");
    public static final RunOption<Double> LR_DECAY = RunOption.of("lr-decay", "T0", ValueType.realAtLeast(0, 1e12), FREE,
            "Learning rate eta_0 / (1 + t / T0); 0 for a constant rate; default 5000 on mnist, a9a, covtype and covtype-20k, else 0.");
    public static final RunOption<Boolean> REFERENCE_COMPAT = RunOption.of("reference-compat", "", ValueType.flag(), MECHANISM,
            "Decor only: reproduce the reference code's deviations (pairwise noise drawn once and scaled by W_ij). Not the"
                    + " paper's algorithm, and not covered by the ledger's epsilon.");

    /** Checks a node count: a whole number, or RxC. */
}
