/**
 * Privacy auditing: an empirical lower bound on a training run's epsilon from one run with planted canaries
 * (Steinke, Nasr and Jagielski, NeurIPS 2023). {@link org.dpdl4j.audit.OneRunAudit} turns the auditor's guesses into
 * the lower bound at a stated confidence, {@link org.dpdl4j.audit.Guesses} makes the guesses from per-canary scores,
 * and {@link org.dpdl4j.audit.MembershipInference} gives the same scores' AUC and true-positive rates at low
 * false-positive rates for orientation. A lower bound says what the run provably does not beat; it is not an
 * estimate of the run's true epsilon, and a bound far below the accountant's epsilon is no sign of a flaw.
 */
package org.dpdl4j.audit;
