/**
 * One training run of any registered protocol with everything around it. {@link TrainingSession} checks the data,
 * claims the run directory, writes the configuration with provenance, evaluates and records metrics, shows
 * progress, saves checkpoints and models, prints the privacy statement, and ends with an {@link Outcome}
 * (completed, budget reached, diverged) whose exit code the command returns; {@link SessionOptions} declares its
 * options (output and data directories, evaluation and checkpoint intervals, resume). The run itself is built by
 * the library ({@code org.dpdl4j.runtime}, {@code org.dpdl4j.protocol}), the data and model come from
 * {@code org.dpdl4j.experiments.workload}, the files from {@code org.dpdl4j.experiments.report}, and the picocli
 * {@code train} command is {@code org.dpdl4j.cli.train}.
 */
package org.dpdl4j.experiments.training;
