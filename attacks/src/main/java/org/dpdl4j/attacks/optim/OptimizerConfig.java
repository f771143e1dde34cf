package org.dpdl4j.attacks.optim;

/** Settings of an optimiser; {@link #newMinimizer()} starts a fresh run with them. */
public sealed interface OptimizerConfig permits LbfgsConfig, AdamConfig {

    /** A new optimiser with empty state. */
    Minimizer newMinimizer();

    /** Short name for reports, e.g. {@code lbfgs}. */
    String name();
}
