package org.dpdl4j.cli.train;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.dpdl4j.experiments.tuning.TuningResult;
import org.dpdl4j.experiments.tuning.TuningSession;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.dpdl4j.runtime.options.RunSettings;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * {@code dpdl4j tune}: hyperparameter tuning of any registered protocol through Arbiter, with the privacy cost of
 * choosing the best candidate in the released model's ledger ({@link TuningSession}). Every {@code train} option can
 * be fixed for all candidates; the search space names the options that vary.
 */
@Command(name = "tune", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Tune the hyperparameters of any algorithm through Arbiter, with the privacy cost of tuning accounted:"
                + " a random number of candidates, the best one released, its epsilon including the tuning.")
public final class TuneCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        ParseResult parsed = spec.commandLine().getParseResult();
        ProtocolRegistry registry = ProtocolRegistry.standard();
        Protocol protocol = TrainCommand.chosen(spec, registry, "dp-sgd");
        try {
            RunSettings settings = TrainOptions.of(registry, TuningSession.sessionOptions()).settings(parsed, protocol);
            TuningResult result = new TuningSession(protocol, settings, parsed.originalArgs(), spec.commandLine().getOut()).run();
            return result.best().isPresent() ? 0 : 5;
        } catch (InvalidOptionException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e, null, e.option());
        }
    }

    /** Adds the options and the help's algorithm list and examples (called once, when the command line is built). */
    public static void register(CommandLine tune) {
        ProtocolRegistry registry = ProtocolRegistry.standard();
        CommandSpec spec = tune.getCommandSpec();
        List<String> description = new ArrayList<>(List.of(spec.usageMessage().description()));
        description.add("");
        description.addAll(TrainOptions.wrapped("", "A pool of configurations is drawn from the search space by Arbiter's random"
                + " or grid search and priced before any data is touched; K candidates, K drawn from --candidates, each"
                + " train a configuration drawn from the pool on the training data less a validation set, and release their"
                + " validation accuracy with noise; the best candidate's model is released, with --epsilon-total covering"
                + " the whole tuning (Papernot & Steinke, ICLR 2022). The bound assumes K secret: the run directory holds"
                + " only what is released (model.zip, privacy.txt, best.json), and the tuner's record of every candidate,"
                + " like this screen, is the operator's (OUT/operator/, not covered). A private search may not vary what the"
                + " guarantee is (noise, epsilon, delta, ...). With --tuning-data public nothing is accounted."));
        description.add("");
        description.add("Examples:");
        description.add("  dpdl4j tune --algo dp-sgd --dataset a9a --space dp-sgd --candidates geometric:10 --epsilon-total 4");
        description.add("  dpdl4j tune --algo dp-sgd --dataset mnist --space network --epochs 2 --clip 1 --epsilon-total 8");
        description.add("  dpdl4j tune --algo sgd --dataset a9a --space my-space.json --tuning-data public");
        description.add("");
        description.addAll(TrainOptions.wrapped("Exit status: ", "0 a model (or configuration) was chosen; 1 an error; 2 a bad"
                + " option; 5 no candidate produced a model (K = 0 or all diverged)."));
        description.add("");
        description.add("Options:");
        spec.usageMessage().description(description.toArray(String[]::new)).width(TrainOptions.WIDTH + 4).abbreviateSynopsis(true);
        spec.addOption(OptionSpec.builder(TrainCommand.ALGO).paramLabel("ALGO").type(String.class)
                .description("The algorithm: " + String.join(", ", registry.names()) + "; default dp-sgd.").build());
        TrainOptions.of(registry, TuningSession.sessionOptions()).addOptions(spec, registry, "Tuning, data and model:%n");
    }
}
