/**
 * Privacy auditing: an empirical lower bound on a training run's epsilon from one run with planted canaries
 * (Steinke, Nasr and Jagielski, NeurIPS 2023).
 * <ul>
 *   <li>{@link org.dpdl4j.audit.OneRunAudit} turns the auditor's guesses into the lower bound at a stated confidence;
 *       {@link org.dpdl4j.audit.Guesses} makes the guesses from per-canary scores, {@link org.dpdl4j.audit.GuessPlan}
 *       fixes which guesses are allowed, {@link org.dpdl4j.audit.AuditResult} holds the outcome, and
 *       {@link org.dpdl4j.audit.MembershipInference} gives the same scores' AUC and true-positive rates at low
 *       false-positive rates for orientation.</li>
 *   <li>White-box: {@link org.dpdl4j.audit.AuditCanaries} are planted in central DP-SGD (through
 *       {@link org.dpdl4j.optim.PlantedExamples}): random directions ({@link org.dpdl4j.audit.GradientCanaries}) or
 *       one coordinate each ({@link org.dpdl4j.audit.DiracCanaries}) where no training example has a gradient
 *       ({@link org.dpdl4j.audit.ZeroGradientCoordinates}). {@link org.dpdl4j.audit.WhiteBoxAuditor} scores them by
 *       their summed projections on every released gradient, optionally after subtracting
 *       {@link org.dpdl4j.audit.ExpectedDataGradient}; {@link org.dpdl4j.audit.LikelihoodRatioAuditor} by their
 *       log-likelihood ratio of inclusion over every step.</li>
 *   <li>Black-box: {@link org.dpdl4j.audit.InputCanaries} are mislabelled examples scored by the final model.</li>
 * </ul>
 * A lower bound says what the run provably does not beat; it is not an estimate of the run's true epsilon, and a bound
 * far below the accountant's epsilon is no sign of a flaw.
 */
package org.dpdl4j.audit;
