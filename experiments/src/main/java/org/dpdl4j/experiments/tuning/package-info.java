/**
 * Hyperparameter tuning of any registered protocol through Arbiter, with its privacy cost accounted (Papernot &amp;
 * Steinke 2022): {@link org.dpdl4j.experiments.tuning.TuningSession} draws a pool of configurations from a
 * {@link org.dpdl4j.experiments.tuning.SearchSpace}, prices every member from its planned ledger before any data is
 * touched ({@link org.dpdl4j.tuning.TuningCost}), runs a random number K of candidates drawn from the pool
 * ({@link org.dpdl4j.experiments.tuning.PoolSampler}, {@link org.dpdl4j.experiments.tuning.CandidateTrainer}), scores
 * them on held-out data with noise ({@link org.dpdl4j.experiments.tuning.ValidationScore}) and releases the best. What
 * reveals K stays in the operator's record ({@link org.dpdl4j.experiments.tuning.OperatorRecord}); the released files
 * are K-free, and settings that would change the guarantee may not be searched privately
 * ({@link org.dpdl4j.experiments.tuning.GuaranteeSettings}).
 */
package org.dpdl4j.experiments.tuning;
