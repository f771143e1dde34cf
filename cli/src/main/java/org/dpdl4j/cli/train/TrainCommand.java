package org.dpdl4j.cli.train;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpdl4j.experiments.training.SessionOptions;
import org.dpdl4j.experiments.training.TrainingSession;
import org.dpdl4j.experiments.workload.WorkloadOptions;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.dpdl4j.runtime.engine.EngineOptions;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunSettings;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * {@code dpdl4j train}: trains with any registered protocol. The algorithm list, the help and the options come from
 * the {@link ProtocolRegistry}: every option is declared once, by the component that reads it, and an option the
 * chosen algorithm (or data set) does not read is an error.
 */
@Command(name = "train", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Train a model with any registered protocol, centrally, on a graph of nodes or across machines,"
                + " with or without differential privacy.")
public final class TrainCommand implements Callable<Integer> {
    /** The option that chooses the protocol. */
    static final String ALGO = "--algo";

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        ParseResult parsed = spec.commandLine().getParseResult();
        ProtocolRegistry registry = ProtocolRegistry.standard();
        Protocol protocol = chosen(spec, registry, "sgd");
        try {
            RunSettings settings = TrainOptions.of(registry).settings(parsed, protocol);
            return new TrainingSession(protocol, settings, parsed.originalArgs(), spec.commandLine().getOut()).run()
                    .exitCode();
        } catch (InvalidOptionException e) {
            // Every problem with an option's value or its fit to the algorithm and data is a usage error (exit 2),
            // found before any training.
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e, null, e.option());
        }
    }

    /** The protocol {@code --algo} names ({@code fallback} when it is not given); an unknown name is a usage error. */
    static Protocol chosen(CommandSpec spec, ProtocolRegistry registry, String fallback) {
        String name = spec.commandLine().getParseResult().matchedOptionValue(ALGO, fallback);
        if (!registry.contains(name)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "unknown --algo '" + name + "'; known: "
                    + String.join(", ", registry.names()));
        }
        return registry.get(name);
    }

    /**
     * Adds the registry's options and algorithm list to the {@code train} command (called once, when the command line
     * is built).
     */
    public static void register(CommandLine train) {
        ProtocolRegistry registry = ProtocolRegistry.standard();
        TrainOptions.of(registry).addTo(train.getCommandSpec(), registry);
    }

    /** Protocols by family, for help. */
    static Map<String, List<Protocol>> byFamily(ProtocolRegistry registry) {
        Map<String, List<Protocol>> out = new LinkedHashMap<>();
        for (Protocol p : registry.all()) {
            out.computeIfAbsent(p.family(), f -> new ArrayList<>()).add(p);
        }
        return out;
    }

    /** Every workload, session and engine option (read whatever the algorithm). */
    static List<RunOption<?>> general() {
        List<RunOption<?>> out = new ArrayList<>(WorkloadOptions.all());
        out.addAll(SessionOptions.all());
        out.addAll(EngineOptions.all());
        return out;
    }
}
