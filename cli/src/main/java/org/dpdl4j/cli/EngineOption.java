package org.dpdl4j.cli;

import org.dpdl4j.runtime.engine.EngineOptions;
import org.dpdl4j.runtime.engine.RunEngines;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunSettings;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --engine}, {@code --master} and {@code --blocks} for the commands that build their runs themselves (the
 * reproductions); {@code train} reads the same options from their declarations ({@link EngineOptions}, and the Spark
 * engine's own, which is where {@code --master} and {@code --blocks} are checked here too).
 */
public final class EngineOption {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--engine", paramLabel = "ENGINE", description = "Where the rounds run: local (default) or spark.")
    String engine;

    @Option(names = "--master", paramLabel = "URL", description = "With --engine spark: local[N] or spark://HOST:PORT;"
            + " default: the spark.master property, else local[*].")
    String master;

    @Option(names = "--blocks", paramLabel = "K", description = "With --engine spark: split the parties into K blocks;"
            + " default: one per core the cluster offers.")
    String blocks;

    /**
     * The engine options given, checked (a cluster option without {@code --engine spark} is a usage error).
     *
     * @throws CommandLine.ParameterException naming the option, the problem and the fix
     */
    public RunSettings settings() {
        try {
            RunSettings s = RunSettings.empty();
            if (engine != null) {
                s = s.withText(EngineOptions.ENGINE, engine);
            }
            s = withEngineOption(s, "master", master);
            s = withEngineOption(s, "blocks", blocks);
            RunEngines.check(s);
            return s;
        } catch (InvalidOptionException e) {
            throw new CommandLine.ParameterException(mixee.commandLine(), e.getMessage(), e, null, e.option());
        }
    }

    /** {@code settings} with an installed engine's option, as given; refused when no installed engine reads it. */
    private RunSettings withEngineOption(RunSettings settings, String name, String text) {
        if (text == null) {
            return settings;
        }
        RunOption<?> option = RunEngines.option(name).orElseThrow(() -> new CommandLine.ParameterException(
                mixee.commandLine(), "--" + name + " is an option of the Spark engine, which this installation lacks (it"
                + " comes with the dpdl4j-spark module); drop --" + name));
        return settings.withText(option, text);
    }
}
