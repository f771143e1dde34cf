/**
 * What {@code dpdl4j doctor} reports: the facts of the runtime it runs in ({@link
 * org.dpdl4j.experiments.diagnostics.RuntimeFacts}: backend, BLAS, threads, memory limits, devices) and the settings
 * known to hurt dpdl4j judged from them ({@link org.dpdl4j.experiments.diagnostics.Diagnosis}), each with what it costs
 * and what to change.
 */
package org.dpdl4j.experiments.diagnostics;
