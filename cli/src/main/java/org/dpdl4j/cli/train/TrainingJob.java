package org.dpdl4j.cli.train;

import java.util.Set;

/** One family of training algorithms behind {@code dpdl4j train --algo ...}. */
interface TrainingJob {

    /** The {@code --algo} values this job runs. */
    Set<String> algorithms();

    /** Options (long names) beyond {@link CommonOptions} that this job reads; any other option is an error. */
    Set<String> options();

    /** Runs the training described by the settings and writes its outputs. */
    void run(TrainSettings settings, RunContext context) throws Exception;
}
