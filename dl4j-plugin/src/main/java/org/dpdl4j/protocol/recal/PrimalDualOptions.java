package org.dpdl4j.protocol.recal;

import static org.dpdl4j.runtime.options.ResumeRule.IDENTITY;
import static org.dpdl4j.runtime.options.ResumeRule.MECHANISM;

import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.ValueType;

/** The options of the primal-dual protocols (RECAL, DP-RECAL, recal-sync, PG-EXTRA, NIDS and their private variants). */
public final class PrimalDualOptions {
    private PrimalDualOptions() {
    }

    public static final RunOption<String> PENALTY = RunOption.of("penalty", "G",
            ValueType.checked("none, l1:LAMBDA or elastic-net:L1,L2", t -> Penalty.parse(t).toString()), IDENTITY,
            "The nonsmooth part g of the objective: none, l1:LAMBDA (the Lasso) or elastic-net:L1,L2; default l1:0.01.");
    public static final RunOption<Double> THETA = RunOption.of("theta", "THETA", ValueType.realAtLeast(0, 1e6), IDENTITY,
            "AFBS relaxation theta >= 0; default 2 (the Vu-Condat case, no correction steps).");
    public static final RunOption<Double> MU = RunOption.of("mu", "MU", ValueType.realAtLeast(0, 1), IDENTITY,
            "AFBS correction split mu in [0, 1] (used when theta != 2); default 1 (0 for dp-recal, whose y must stay public).");
    public static final RunOption<Double> STEP_SCALE = RunOption.of("step-scale", "S", ValueType.realAbove(0, 1e6), IDENTITY,
            "Multiplies the default primal steps (tau_i = 1/(2 L_i) and gamma = 1/sum L_i; alpha of PG-EXTRA and NIDS); default 1.");
    public static final RunOption<Double> ZETA = RunOption.of("zeta", "Z", ValueType.realAbove(0, 1), MECHANISM,
            "Noise attenuation in (0, 1]: an agent's m-th publication has noise std sigma zeta^((m-1)/2); default 1 (constant).");
    public static final RunOption<Long> LCI = RunOption.of("lci", "K", ValueType.integer(1, Integer.MAX_VALUE), MECHANISM,
            "dp-recal: calibrate every agent for K publications instead of its count on the drawn baton path; an agent that"
                    + " would publish more stops when its budget is spent.");
    public static final RunOption<Boolean> PAPER_ACCOUNTING = RunOption.of("paper-accounting", "", ValueType.flag(), MECHANISM,
            "dp-recal: price every publication as the paper does, the agent's state conditioned on (the paper's figure,"
                    + " marked not a guarantee); without it least squares with --step-scale <= 2 is priced with the drift of"
                    + " that state (the m-th publication's sensitivity (m + 1)/2 times the first's), a proven bound with"
                    + " --feature-norm-bound and secure noise.");
    public static final RunOption<Double> STEP_SIZE = RunOption.of("alpha", "ALPHA", ValueType.realAbove(0, 1e6), IDENTITY,
            "PG-EXTRA and NIDS: the step size alpha instead of the default (lambda_min((I+W)/2)/max L_i, resp. 1/max L_i).");

}
