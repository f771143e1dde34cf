/**
 * The {@code dpdl4j train} command. {@link TrainCommand} gets its algorithm list, help and options from the
 * protocol registry when the command line is built (the package-private {@code TrainOptions} turns every declared
 * run option into a picocli option), refuses options the chosen algorithm does not read, and runs an
 * {@code org.dpdl4j.experiments.training.TrainingSession}. No algorithm is named here: protocols and their options
 * are declared in {@code org.dpdl4j.protocol} and found through {@code org.dpdl4j.runtime.ProtocolRegistry}, and
 * the run directory, metrics, checkpoints and statement are the session's work.
 */
package org.dpdl4j.cli.train;
