package org.dpdl4j.cli;

import org.dpdl4j.runtime.engine.EngineOptions;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.dpdl4j.runtime.options.RunSettings;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --engine}, {@code --master} and {@code --blocks} for the commands that build their runs themselves (the
 * reproductions); {@code train} reads the same options from their declarations in {@link EngineOptions}.
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
            if (master != null) {
                s = s.withText(EngineOptions.MASTER, master);
            }
            if (blocks != null) {
                s = s.withText(EngineOptions.BLOCKS, blocks);
            }
            org.dpdl4j.runtime.engine.RunEngines.check(s);
            return s;
        } catch (InvalidOptionException e) {
            throw new CommandLine.ParameterException(mixee.commandLine(), e.getMessage(), e, null, e.option());
        }
    }
}
