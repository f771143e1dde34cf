package org.dpdl4j.protocol.federated;

import static org.dpdl4j.runtime.options.ResumeRule.FREE;
import static org.dpdl4j.runtime.options.ResumeRule.IDENTITY;
import static org.dpdl4j.runtime.options.ResumeRule.MECHANISM;

import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.ValueType;

/** The options of the federated protocols (DP-mu^2-FL, FedAvg, DP-FedAvg, GOPA). */
public final class FederatedOptions {
    private FederatedOptions() {
    }

    public static final RunOption<Double> DIAMETER = RunOption.of("diameter", "D", ValueType.realAbove(0, 1e12), MECHANISM,
            "mu2: diameter of the parameter ball K = {||theta|| <= D/2}; default 0.1 (the paper's MNIST setup).");
    public static final RunOption<Double> LIPSCHITZ = RunOption.of("lipschitz", "G", ValueType.realAbove(0, 1e12), MECHANISM,
            "mu2: Lipschitz constant G of the per-example loss; with --smoothness it sets S = G + 2LD, the clip of every"
                    + " increment; default: from --feature-norm-bound for softmax/logistic regression.");
    public static final RunOption<Double> SMOOTHNESS = RunOption.of("smoothness", "L", ValueType.realAbove(0, 1e12), MECHANISM,
            "mu2: smoothness constant L of the per-example loss (see --lipschitz).");
    public static final RunOption<String> INIT = RunOption.of("init", "X1", ValueType.choice("zero", "model"), IDENTITY,
            "mu2 starting point x_1: zero (the centre of K) or model (the network's initialisation, projected onto K);"
                    + " default: zero for softmax/logistic, model for an MLP.");
    public static final RunOption<Long> LOCAL_STEPS = RunOption.of("local-steps", "L", ValueType.integer(1, 1_000_000), FREE,
            "FedAvg family: local SGD steps per round; default 5.");
    public static final RunOption<Double> CLIENT_RATE = RunOption.of("client-rate", "Q", ValueType.realAbove(0, 1), MECHANISM,
            "FedAvg family: fraction of clients taking part in a round; default 1 (everyone).");
    public static final RunOption<String> CLIENT_SAMPLING = RunOption.of("client-sampling", "S", ValueType.choice("poisson", "fixed"),
            MECHANISM, "With --client-rate < 1: poisson (each client independently; add/remove accounting) or fixed (exactly"
                    + " Q M clients, which must be a whole number; replace-one accounting); default poisson.");
    public static final RunOption<String> WEIGHTING = RunOption.of("weighting", "W", ValueType.choice("uniform", "size"), FREE,
            "fedavg: weights of the updates, uniform (1/K) or size (m_k / sum m); default uniform.");
    public static final RunOption<Double> SERVER_LR = RunOption.of("server-lr", "ETA", ValueType.realAbove(0, 1e6), FREE,
            "FedAvg family: server step on the averaged update; default 1.");
    public static final RunOption<Long> GOPA_K = RunOption.of("gopa-k", "K", ValueType.integer(1, 1_000_000), MECHANISM,
            "gopa: each client shares pairwise secrets with K others (random K-out graph); default 3.");
    public static final RunOption<Double> COLLUDING_FRACTION = RunOption.of("colluding-fraction", "F", ValueType.realFrom(0, 1),
            MECHANISM, "gopa: fraction of clients colluding with the server (rounded up); default 0.");
    public static final RunOption<String> COLLUDING_SETS = RunOption.of("colluding-sets", "A",
            ValueType.checked("worst or sampled:N", t -> {
                CollusionAnalysis.parse(t, 0);
                return t.toLowerCase(java.util.Locale.ROOT);
            }), MECHANISM,
            "gopa: worst (the exact worst colluding set, or the documented upper bound when there are too many) or"
                    + " sampled:N (maximum over N random sets: an estimate, not a guarantee); default worst.");
    public static final RunOption<Double> PAIRWISE_MULTIPLIER = RunOption.of("pairwise-multiplier", "Z", ValueType.realAtLeast(0, 1e12),
            MECHANISM, "gopa: pairwise noise std over S, with --noise-multiplier, instead of calibrating from --epsilon.");
    public static final RunOption<Boolean> VERIFY = RunOption.of("verify", "", ValueType.flag(), FREE,
            "gopa: every party commits to all coordinates of its clipped update, pairwise terms and noise, and proves range,"
                    + " cancellation and its published value on --verify-coordinates of them chosen after all commitments;"
                    + " a party that fails is excluded from the round and named in verification.csv.");
    public static final RunOption<String> VERIFY_COORDINATES = RunOption.of("verify-coordinates", "K",
            ValueType.checked("a count >= 1 or all", t -> {
                String v = t.trim().toLowerCase(java.util.Locale.ROOT);
                if (!v.equals("all")) {
                    long k;
                    try {
                        k = Long.parseLong(v);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("must be a count >= 1 or all");
                    }
                    if (k < 1 || k > Integer.MAX_VALUE) {
                        throw new IllegalArgumentException("must be a count >= 1 or all");
                    }
                }
                return v;
            }), FREE, "gopa --verify: coordinates proven per party and round, chosen after the commitments (a lie on one"
                    + " coordinate of p escapes a round with probability 1 - K/p); all proves every one; default 8.");
}
