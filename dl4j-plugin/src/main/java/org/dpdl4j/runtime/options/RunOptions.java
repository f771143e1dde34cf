package org.dpdl4j.runtime.options;

import org.dpdl4j.privacy.accounting.AccountantFactory;

import org.dpdl4j.privacy.noise.NoiseKind;

import static org.dpdl4j.runtime.options.ResumeRule.FREE;
import static org.dpdl4j.runtime.options.ResumeRule.IDENTITY;
import static org.dpdl4j.runtime.options.ResumeRule.MECHANISM;

/**
 * The options several protocols read, declared once. A protocol lists the ones it accepts (with its own options)
 * in its {@link org.dpdl4j.runtime.Protocol#options()}; giving an option the chosen protocol does not read is an
 * error, never a silent no-op.
 */
public final class RunOptions {
    private RunOptions() {
    }

    public static final RunOption<Long> SEED = RunOption.of("seed", "S", ValueType.anyInteger(), IDENTITY,
            "Seed of the model, the data split and the seeded streams; default 1.");
    public static final RunOption<Long> ROUNDS = RunOption.of("rounds", "T", ValueType.integer(1, Integer.MAX_VALUE), MECHANISM,
            "Rounds (gossip rounds, server rounds, token hops).");
    public static final RunOption<Double> EPOCHS = RunOption.of("epochs", "E", ValueType.realAbove(0, 1_000_000), MECHANISM,
            "Passes over the training data (central training); a fraction plans the steps of part of an epoch.");
    public static final RunOption<Long> BATCH_SIZE = RunOption.of("batch-size", "B", ValueType.integer(0, Integer.MAX_VALUE),
            MECHANISM, "Examples per step (the expected number under Poisson sampling); 0 = all local data, where the"
                    + " protocol allows it. With fixed-size batches a party holding fewer than B examples uses all of them"
                    + " at each step (partition.txt lists every party's size).");
    public static final RunOption<Double> LEARNING_RATE = RunOption.of("lr", "ETA", ValueType.realAbove(0, 1e6), FREE,
            "Learning rate.");
    public static final RunOption<Double> WEIGHT_DECAY = RunOption.of("weight-decay", "LAMBDA", ValueType.realAtLeast(0, 1e6),
            FREE, "Weight decay (L2 regularisation) lambda; default 0.");
    public static final RunOption<Double> EPSILON = RunOption.of("epsilon", "EPS", ValueType.realAbove(0, 1e6), MECHANISM,
            "Target epsilon: the noise is calibrated to reach it at the end of the planned run, and the run stops"
                    + " before any step that would exceed it.");
    public static final RunOption<Double> DELTA = RunOption.of("delta", "DELTA", ValueType.realBetween(0, 1), MECHANISM,
            "delta of every epsilon; default 1e-5 (keep it well below 1 / the number of protected units).");
    public static final RunOption<Double> EPSILON_BUDGET = RunOption.of("epsilon-budget", "EPS", ValueType.realAbove(0, 1e6),
            FREE, "Stop before any step that would take the spent epsilon above EPS (default: --epsilon when given,"
                    + " else no limit). It changes no mechanism: a run stopped by its budget continues with --resume and"
                    + " a larger budget, its ledger composing every step.");
    public static final RunOption<Double> CLIP = RunOption.of("clip", "C", ValueType.realAbove(0, 1e12), MECHANISM,
            "Clipping norm of each protected contribution (an example's gradient, a user's gradient, a client's update).");
    public static final RunOption<Double> NOISE_MULTIPLIER = RunOption.of("noise-multiplier", "Z", ValueType.realAbove(0, 1e12),
            MECHANISM, "Noise std over the clipping norm, instead of calibrating from --epsilon.");
    public static final RunOption<String> SAMPLING = RunOption.of("sampling", "S", ValueType.choice("poisson", "fixed"), MECHANISM,
            "Batch sampling of private training: poisson (each example independently) or fixed (uniform subsets of"
                    + " exactly --batch-size). Default: poisson, but fixed for decor, ldp and cdp at --unit user.");
    public static final RunOption<NoiseKind> NOISE = RunOption.of("noise", "SOURCE", ValueType.named(NoiseKind.class,
                    "one of secure, seeded, philox", NoiseKind::parse, NoiseKind::cliName), MECHANISM,
            "Noise source: secure (AES-256-CTR keyed from SecureRandom, default), seeded (reproducible, NOT secure) or"
                    + " philox (reproducible by Philox counters, NOT secure; the decentralized protocols draw it on the GPU"
                    + " with the node models).");
    public static final RunOption<String> ACCOUNTANT = RunOption.of("accountant", "A",
            ValueType.choice(AccountantFactory.NAMES.toArray(String[]::new)), MECHANISM,
            "How the run is priced, for its noise calibration, its budget stop and its reports: tightest (default; the"
                    + " smallest valid bound of Renyi DP, zCDP, the exact Gaussian curve and privacy loss distributions),"
                    + " rdp (Renyi DP alone, the pricing of runs made before the others existed) or additive (all but"
                    + " privacy loss distributions; the default of tune, which prices every pool member at every probe of"
                    + " its calibration). A resumed run keeps the accountant it started with.");
    public static final RunOption<Double> FEATURE_NORM_BOUND = RunOption.of("feature-norm-bound", "B", ValueType.realAbove(0, 1e12),
            MECHANISM, "A public bound B on every example's feature norm ||x||, so that the constants the steps and the noise"
                    + " follow are not computed from the private data. mu2: G and L of softmax/logistic regression (spec"
                    + " 4.6; every increment is clipped, so data beyond B cost convergence, not privacy); default sqrt(nIn),"
                    + " the bound for features in [-1, 1] (MNIST's pixels in [0, 1] included). Private primal-dual"
                    + " protocols: every agent's smoothness c m_i (B^2 + 1) with an intercept, c m_i B^2 without; private"
                    + " personalized CD: every user's local smoothness B^2/4 + 2 lambda_i; there it replaces each agent's own"
                    + " (the papers' choice, whose dependence on the data the ledger does not price), has no default, cannot"
                    + " change on resume, and a record beyond B is refused. Never compute B from the private data: that"
                    + " would leak it.");
    public static final RunOption<String> PARTITION = RunOption.of("partition", "P",
            ValueType.text("iid, dirichlet:ALPHA or shards:S"), MECHANISM,
            "Split of the training data over the parties: iid, dirichlet:ALPHA (label skew) or shards:S.");

    /** The pricing a run's {@link #ACCOUNTANT} setting names (the tightest valid bound when it is not set). */
    public static AccountantFactory accountants(RunSettings settings) {
        return AccountantFactory.named(settings.get(ACCOUNTANT, AccountantFactory.TIGHTEST));
    }

    /**
     * The noise kind of a run: a private protocol's {@link #NOISE} setting (secure by default); seeded from the run's
     * seed for a protocol without privacy, whose randomness (batch and client sampling) protects nothing and so is
     * reproducible.
     */
    public static NoiseKind noiseKind(RunSettings settings, boolean isPrivate) {
        return isPrivate ? settings.get(NOISE, NoiseKind.SECURE) : NoiseKind.SEEDED;
    }
}
