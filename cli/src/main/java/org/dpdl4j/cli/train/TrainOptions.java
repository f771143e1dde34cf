package org.dpdl4j.cli.train;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunSettings;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code train} command's options, made from their declarations: the workload and session options every
 * algorithm reads, then each option some protocol reads, with the algorithms that read it named in its help.
 */
final class TrainOptions {
    private final Map<String, RunOption<?>> byFlag = new LinkedHashMap<>();
    private final List<RunOption<?>> general;

    private TrainOptions(List<RunOption<?>> general, List<RunOption<?>> protocolOptions) {
        this.general = general;
        general.forEach(o -> byFlag.put(o.flag(), o));
        protocolOptions.forEach(o -> byFlag.putIfAbsent(o.flag(), o));
    }

    static TrainOptions of(ProtocolRegistry registry) {
        return of(registry, TrainCommand.general());
    }

    /** The options of a command that reads {@code general} besides the protocols' options. */
    static TrainOptions of(ProtocolRegistry registry, List<RunOption<?>> general) {
        return new TrainOptions(general, registry.options());
    }

    /**
     * The settings the parsed command line gives: every general option, and every option of {@code protocol}.
     *
     * @throws InvalidOptionException naming the options the protocol does not read
     */
    RunSettings settings(ParseResult parsed, Protocol protocol) {
        List<String> foreign = new ArrayList<>();
        RunSettings settings = RunSettings.empty();
        for (OptionSpec given : parsed.matchedOptions()) {
            RunOption<?> option = byFlag(given.longestName());
            if (option == null) {
                continue;   // --algo, --help, --version
            }
            if (!isGeneral(option) && !protocol.options().contains(option)) {
                foreign.add(option.flag());
                continue;
            }
            settings = settings.withText(option, given.typedValues().isEmpty() ? "true" : String.valueOf((Object) given.getValue()));
        }
        if (!foreign.isEmpty()) {
            String name = protocol.name();
            throw new InvalidOptionException(foreign.get(0), String.join(", ", foreign) + (foreign.size() == 1
                    ? " has" : " have") + " no effect with --algo " + name + "; drop " + (foreign.size() == 1 ? "it"
                    : "them") + " (" + name + " reads " + String.join(", ",
                    protocol.options().stream().map(RunOption::flag).toList()) + ")");
        }
        return settings;
    }

    /** The general options (as one group) and then every protocol option, naming the protocols that read each. */
    void addOptions(CommandSpec spec, ProtocolRegistry registry, String generalHeading) {
        spec.addArgGroup(group(generalHeading, general, registry, true));
        List<RunOption<?>> rest = new ArrayList<>();
        for (RunOption<?> o : registry.options()) {
            if (!general.contains(o)) {
                rest.add(o);
            }
        }
        spec.addArgGroup(group("Options of the algorithms (each says which algorithms read it):%n", rest, registry, false));
    }

    RunOption<?> byFlag(String flag) {
        return byFlag.get(flag);
    }

    boolean isGeneral(RunOption<?> option) {
        return general.contains(option);
    }

    /** Columns of the help's own lines (picocli wraps them with no indent). */
    static final int WIDTH = 100;

    /** {@code text} after {@code lead}, wrapped at {@link #WIDTH} with continuation lines under the text. */
    static List<String> wrapped(String lead, String text) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(lead);
        for (String word : text.split(" ")) {
            if (line.length() + 1 + word.length() > WIDTH && line.length() > lead.length()) {
                lines.add(line.toString());
                line = new StringBuilder(" ".repeat(lead.length()));
            }
            if (line.length() > lead.length()) {
                line.append(' ');
            }
            line.append(word);
        }
        lines.add(line.toString());
        return lines;
    }

    /** Adds the algorithm list to the description and every option to the command, in groups. */
    void addTo(CommandSpec spec, ProtocolRegistry registry) {
        List<String> description = new ArrayList<>(List.of(spec.usageMessage().description()));
        description.add("");
        description.add("Algorithms (--algo):");
        TrainCommand.byFamily(registry).forEach((family, protocols) -> {
            description.add("  " + family + ":");
            for (Protocol p : protocols) {
                description.addAll(wrapped(String.format("    %-18s ", p.name()), p.summary()));
            }
        });
        description.add("");
        description.add("Examples:");
        description.add("  dpdl4j train --dataset synthetic-lsq --algo decor --epsilon 10 --clip 1");
        description.add("  dpdl4j train --dataset mnist --algo dp-sgd --epsilon 2 --clip 1");
        description.add("  dpdl4j train --dataset a9a --algo decor --topology torus --nodes 4x4 --epsilon 10 --clip 0.1");
        description.add("  dpdl4j train --dataset mnist --algo mu2-untrusted --machines 10 --epsilon 8");
        description.add("");
        description.addAll(wrapped("Exit status: ", "0 done; 1 an error (the message says what and how to fix it); 2 a"
                + " bad option; 3 stopped before a step that would exceed the privacy budget (model and checkpoint kept);"
                + " 4 training diverged (no metric reported)."));
        description.add("");
        description.add("Options:");
        spec.usageMessage().description(description.toArray(String[]::new)).width(WIDTH + 4).abbreviateSynopsis(true);
        spec.addOption(OptionSpec.builder(TrainCommand.ALGO).paramLabel("ALGO").type(String.class)
                .description("The algorithm: " + String.join(", ", registry.names()) + "; default sgd.").build());
        addOptions(spec, registry, "Data and model:%n");
        spec.addOption(hidden("--privacy", "the central DP-SGD of --privacy central is now --algo dp-sgd"));
        spec.addOption(hidden("--split", "the split over machines is now --partition"));
    }

    private static ArgGroupSpec group(String heading, List<RunOption<?>> options, ProtocolRegistry registry, boolean general) {
        ArgGroupSpec.Builder g = ArgGroupSpec.builder().heading(heading).exclusive(false).validate(false);
        for (RunOption<?> o : options) {
            String readers = general ? "" : readers(o, registry);
            OptionSpec.Builder b = OptionSpec.builder(o.flag()).description(o.description() + readers);
            if (o.type().type() == Boolean.class) {
                b.arity("0").type(boolean.class);
            } else {
                b.paramLabel(o.label()).type(String.class);
            }
            g.addArg(b.build());
        }
        return g.build();
    }

    private static String readers(RunOption<?> option, ProtocolRegistry registry) {
        List<Protocol> readers = registry.reading(option);
        if (readers.size() == registry.all().size()) {
            return "";
        }
        return " [" + String.join(", ", readers.stream().map(Protocol::name).toList()) + "]";
    }

    /** An old option name kept only to say what replaced it. */
    private static OptionSpec hidden(String flag, String replacement) {
        return OptionSpec.builder(flag).hidden(true).type(String.class).paramLabel("X")
                .converters(text -> {
                    throw new picocli.CommandLine.TypeConversionException(flag + ": " + replacement);
                }).build();
    }
}
