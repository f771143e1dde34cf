/**
 * {@code dpdl4j audit}: a central DP-SGD run with planted canaries, audited in one run
 * ({@link org.dpdl4j.experiments.audit.DpSgdAudit}), and the re-scoring of a run's canaries file.
 */
package org.dpdl4j.experiments.audit;
