package org.dpdl4j.cli;

import org.dpdl4j.cli.reproduce.Mu2ReproduceCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dpdl4j reproduce}: re-runs a paper's experiment grid and writes its results next to the paper's
 * numbers. Each experiment is a subcommand of its own class.
 */
@Command(name = "reproduce", mixinStandardHelpOptions = true,
        description = "Reproduce a paper's experiments and compare with its published numbers.",
        subcommands = {Mu2ReproduceCommand.class})
public final class ReproduceCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing subcommand: choose an experiment, e.g. 'mu2'");
    }
}
