package org.dpdl4j.cli.reproduce;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code dpdl4j reproduce}: re-runs the experiments of the papers and writes results next to their numbers. */
@Command(name = "reproduce", mixinStandardHelpOptions = true,
        description = "Re-run a paper's experiment grid; writes CSVs, figures and a table (markdown or text) beside the paper's"
                + " numbers where the paper gives them.",
        subcommands = {ReproduceDecorCommand.class, ReproduceDpSgdCommand.class, Mu2ReproduceCommand.class, ReproduceRecalCommand.class, ReproducePersonalizedCommand.class,
                ReproduceMuffliatoCommand.class})
public final class ReproduceCommand implements Runnable {
    /** The help of a reproduction's --noise option. */
    static final String NOISE_HELP = "seeded (reproducible, the default here so that the committed results can be rerun to"
            + " the same numbers; not secure), philox (reproducible by Philox counters, other numbers; not secure; the"
            + " decentralized protocols draw it on the GPU with the node models) or secure (the default of train and the"
            + " library).";

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing subcommand: use "
                + String.join(", ", spec.subcommands().keySet()));
    }
}
