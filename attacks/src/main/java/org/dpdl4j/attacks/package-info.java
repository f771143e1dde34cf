/**
 * The common vocabulary of the gradient-inversion attacks. An {@link AttackCase} is what an adversary observed at
 * one release (the model, the observed vector with its {@link ObservationScale}, {@link GradientForm} and noise
 * std, the batch size) plus the {@link GroundTruth} that is kept from the attack and used only for scoring; an
 * {@link AttackResult} is one attack's outcome with its {@link ImageOutcome}s, {@link Snapshot}s, {@link Timing},
 * {@link StopReason}, {@link NoiseLevel} and {@link ReleaseOrigin}. {@link CaseScorer} turns reconstructions into
 * those scores: back to pixels through {@link InputNormalization}, paired with the examples, then MSE, PSNR, SSIM
 * and labels.
 *
 * <p>The attacks themselves live in {@code org.dpdl4j.attacks.inversion}, their objectives and optimisers in
 * {@code attacks.matching} and {@code attacks.optim}, and the code that taps training runs to build cases in
 * {@code attacks.observe}. PNG grids are drawn in {@code attacks.image}; JSON and CSV output of results is written
 * by {@code org.dpdl4j.experiments.attack}, and this {@link ReleaseOrigin} is not the run provenance of
 * {@code org.dpdl4j.experiments.report}.
 */
package org.dpdl4j.attacks;
