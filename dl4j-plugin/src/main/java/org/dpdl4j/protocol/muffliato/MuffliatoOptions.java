package org.dpdl4j.protocol.muffliato;

import static org.dpdl4j.runtime.options.ResumeRule.MECHANISM;

import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.ValueType;

/** The options only Muffliato reads. */
public final class MuffliatoOptions {
    private MuffliatoOptions() {
    }

    public static final RunOption<Long> GOSSIP_STEPS = RunOption.of("gossip-steps", "T", ValueType.integer(1, 100_000), MECHANISM,
            "Muffliato: gossip steps after each noisy local step; default 10.");
    public static final RunOption<String> GOSSIP = RunOption.of("gossip", "G", ValueType.choice("plain", "chebyshev"), MECHANISM,
            "Muffliato: plain gossip (W^T) or Chebyshev-accelerated gossip; default chebyshev.");
    public static final RunOption<String> CALIBRATE_TO = RunOption.of("calibrate-to", "C",
            ValueType.choice("local", "pairwise-mean", "pairwise-max"), MECHANISM,
            "Muffliato with --epsilon: which epsilon the noise is calibrated to: local (local DP, the ledger's guarantee),"
                    + " pairwise-mean or pairwise-max (pairwise network DP over all pairs of nodes); default local.");
}
