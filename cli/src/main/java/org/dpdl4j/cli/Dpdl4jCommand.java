package org.dpdl4j.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code dpdl4j} command. */
@Command(name = "dpdl4j", mixinStandardHelpOptions = true, version = "dpdl4j 0.1.0",
        description = "Differentially private decentralized and federated learning on Deeplearning4j.",
        subcommands = {AccountCommand.class, DatasetsCommand.class})
public final class Dpdl4jCommand implements Runnable {
    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Dpdl4jCommand()).execute(args));
    }
}
