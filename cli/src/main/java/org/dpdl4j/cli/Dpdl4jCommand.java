package org.dpdl4j.cli;

import org.dpdl4j.cli.bench.BenchCommand;
import org.dpdl4j.cli.reproduce.ReproduceCommand;
import org.dpdl4j.cli.train.TrainCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code dpdl4j} command. */
@Command(name = "dpdl4j", mixinStandardHelpOptions = true, version = "dpdl4j 0.1.0",
        description = "Differentially private decentralized and federated learning on Deeplearning4j.",
        subcommands = {TrainCommand.class, ReproduceCommand.class, AccountCommand.class, DatasetsCommand.class, BenchCommand.class, AttackCommand.class})
public final class Dpdl4jCommand implements Runnable {
    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * The command line with dpdl4j's error handling: a problem with the input (bad option value, bad data
     * file, impossible privacy target) prints one clear message and exits with 1; a bug prints its stack
     * trace as well.
     */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Dpdl4jCommand());
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            boolean userError = ex instanceof IllegalArgumentException || ex instanceof IllegalStateException
                    || ex instanceof java.io.IOException || ex instanceof java.io.UncheckedIOException;
            commandLine.getErr().println("dpdl4j " + commandLine.getCommandName() + ": error: " + ex.getMessage());
            if (!userError) {
                ex.printStackTrace(commandLine.getErr());
            }
            return 1;
        });
        return cl;
    }
}
