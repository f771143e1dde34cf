package org.dpdl4j.cli;

import org.dpdl4j.cli.bench.BenchCommand;
import org.dpdl4j.cli.reproduce.ReproduceCommand;
import org.dpdl4j.cli.train.TrainCommand;
import org.dpdl4j.cli.train.TuneCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code dpdl4j} command. */
@Command(name = "dpdl4j", mixinStandardHelpOptions = true, version = "dpdl4j 0.1.0",
        description = "Differentially private decentralized and federated learning on Deeplearning4j.",
        subcommands = {TrainCommand.class, TuneCommand.class, ReproduceCommand.class, AccountCommand.class, DatasetsCommand.class, BenchCommand.class, AttackCommand.class, AuditCommand.class, DoctorCommand.class})
public final class Dpdl4jCommand implements Runnable {
    @Override
    public void run() {
        CommandLine.usage(this, System.out);
    }

    public static void main(String[] args) {
        CommandLine cl = commandLine();
        int status;
        try {
            status = cl.execute(args);
        } catch (OutOfMemoryError e) {
            System.err.println("dpdl4j: error: " + message(e));
            status = 1;
        } catch (LinkageError e) {
            // ND4J loads its native backend in a static initialiser: a failure there is an Error, not an Exception.
            System.err.println("dpdl4j: error: " + BackendFailure.describe(e).orElseGet(() -> message(e)));
            if (System.getenv("DPDL4J_DEBUG") != null) {
                e.printStackTrace();
            }
            status = 1;
        }
        System.exit(status);
    }

    /**
     * The command line with dpdl4j's error handling: a problem with the input (bad option value, bad data
     * file, impossible privacy target) prints one clear message and exits with 1; a bug prints its stack
     * trace as well.
     */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Dpdl4jCommand());
        TrainCommand.register(cl.getSubcommands().get("train"));
        TuneCommand.register(cl.getSubcommands().get("tune"));
        // A bad option prints its message and where the help is, not the whole usage (train has 50 options).
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine at = ex.getCommandLine();
            at.getErr().println("dpdl4j " + qualifiedName(at) + ": " + ex.getMessage());
            if (!CommandLine.UnmatchedArgumentException.printSuggestions(ex, at.getErr())) {
                at.getErr().println("See 'dpdl4j " + qualifiedName(at) + " --help'.");
            }
            return at.getCommandSpec().exitCodeOnInvalidInput();
        });
        // Checks of the parsed command line that hold for every command, before it runs.
        cl.setExecutionStrategy(parseResult -> {
            ListOptions.refuseEmptyEntries(parseResult);
            return new CommandLine.RunLast().execute(parseResult);
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println("dpdl4j " + qualifiedName(commandLine) + ": error: " + message(ex));
            if (!isUserError(ex) && System.getenv("DPDL4J_DEBUG") != null) {
                ex.printStackTrace(commandLine.getErr());
            }
            return 1;
        });
        return cl;
    }

    /** The command's name under dpdl4j, e.g. {@code attack dlg}. */
    private static String qualifiedName(CommandLine c) {
        String name = c.getCommandName();
        for (CommandLine p = c.getParent(); p != null && p.getParent() != null; p = p.getParent()) {
            name = p.getCommandName() + " " + name;
        }
        return name;
    }

    /** Problems with the input (options, data, privacy targets, files) as opposed to bugs. */
    private static boolean isUserError(Throwable ex) {
        return ex instanceof IllegalArgumentException || ex instanceof IllegalStateException
                || ex instanceof java.io.IOException || ex instanceof java.io.UncheckedIOException
                || ex instanceof OutOfMemoryError;
    }

    /** What the user reads: the problem and the fix, never a stack trace. */
    private static String message(Throwable ex) {
        java.util.Optional<String> backend = BackendFailure.describe(ex);
        if (backend.isPresent()) {
            return backend.get();
        }
        if (ex instanceof OutOfMemoryError) {
            return "out of memory (" + ex.getMessage() + "): this run needs more memory than the JVM may use; use fewer"
                    + " nodes, a smaller model or smaller batches, or give the JVM more with DPDL4J_JAVA_OPTS=\"-Xmx8g"
                    + " -Dorg.bytedeco.javacpp.maxbytes=8g\"";
        }
        if (ex instanceof java.io.IOException io) {
            return org.dpdl4j.data.io.FileErrors.describe(io);   // a bare path says nothing: say what is wrong with it
        }
        if (isUserError(ex)) {
            return ex.getMessage();
        }
        return "internal error (" + ex.getClass().getSimpleName() + ": " + ex.getMessage() + "). This is a bug in dpdl4j:"
                + " please report it with the command line that caused it (set DPDL4J_DEBUG=1 to print the stack trace)";
    }
}
