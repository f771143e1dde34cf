/**
 * Decentralized learning on a graph: D-SGD, Decor and the LDP and CDP baselines ({@link DecentralizedAlgorithm}),
 * with the n node models stored as the rows of one matrix. {@link DecentralizedTrainer} runs the rounds (batched
 * clipped gradients, private and pairwise noise drawn one round ahead, the local step, gossip), set up by
 * {@link DecentralizedRunBuilder} from a {@link DecentralizedConfig}; {@link RoundObserver}s receive each round as
 * a {@link RoundTap}. {@link DecentralizedPrivacy} states which mechanism a round is for the chosen adversary,
 * {@link DecentralizedCalibration} finds the noise for a target (epsilon, delta), {@link ReferenceCodeEpsilon}
 * reproduces the Decor code's per-step number (not a guarantee), and {@link DecentralizedProtocols} registers
 * {@code dsgd}, {@code decor}, {@code ldp} and {@code cdp} with their {@link DecentralizedOptions}.
 *
 * <p>Kappa and noise-pair calibration are computed in {@code org.dpdl4j.privacy.accounting.correlated}, the noise
 * streams in {@code org.dpdl4j.privacy.noise}, graphs and mixing matrices in {@code org.dpdl4j.graph}, and the
 * batched per-example gradients in {@code org.dpdl4j.optim}.
 */
package org.dpdl4j.protocol.decentralized;
