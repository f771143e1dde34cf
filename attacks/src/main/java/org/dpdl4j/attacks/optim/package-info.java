/**
 * Small optimisers over a flat {@code double[]} of unknowns with PyTorch's semantics: {@link Lbfgs} (two-loop
 * L-BFGS with a fixed step, as {@code torch.optim.LBFGS} without line search) and {@link Adam}, configured by
 * {@link LbfgsConfig} and {@link AdamConfig} (both {@link OptimizerConfig}s) and advanced one outer step at a time
 * through the {@link Minimizer} interface, each step reporting a {@link StepOutcome}. They minimise any
 * {@link FlatObjective}; the gradient-matching objectives they are used on live in
 * {@code org.dpdl4j.attacks.matching}. They have nothing to do with training: DP-SGD is in
 * {@code org.dpdl4j.optim}, and model updates use DL4J's own updaters.
 */
package org.dpdl4j.attacks.optim;
