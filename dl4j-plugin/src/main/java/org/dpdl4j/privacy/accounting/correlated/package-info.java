/**
 * The privacy of pairwise-correlated Gaussian noise on a graph (Decor's SecRDP; GOPA uses the same mechanism).
 * {@link SecRdpAccountant} computes the per-step constant kappa ({@link KappaResult}: exact, or an upper bound from
 * {@link TheoremOneBound} when there are too many colluder sets) for a {@link CorrelatedNoise} pair and an
 * {@link Adversary}; {@link SecRdpGuarantee} composes T steps into (epsilon, delta), and
 * {@link NoisePairCalibrator} finds (sigmaCdp, sigmaCor) pairs that meet a {@link CalibrationTarget}, searching
 * between the levels of {@link DecorBaselines}. {@link UserLevelSensitivity} gives the sensitivities of Decor and
 * GOPA.
 *
 * <p>The ledger of a run does not record these types: a protocol turns kappa into a {@code CorrelatedGaussianEvent}
 * of {@code org.dpdl4j.privacy.accounting}, priced by the general accountants there. That decision is made in
 * {@code org.dpdl4j.protocol.decentralized} (DecentralizedPrivacy) and {@code org.dpdl4j.protocol.federated}
 * (GOPA).
 */
package org.dpdl4j.privacy.accounting.correlated;
