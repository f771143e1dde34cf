package org.dpdl4j.cli;

import org.dpdl4j.data.catalog.DataDirectory;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The {@code --data-dir} option of every command that reads a real dataset (a picocli mixin). */
public final class DataDirOption {
    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Data directory (default: $" + DataDirectory.ENVIRONMENT_VARIABLE + ", else ~/"
                    + DataDirectory.DEFAULT_RELATIVE_TO_HOME + ").")
    Path dataDir;

    /** The data directory: the option, else the environment variable, else the default under the home directory. */
    public DataDirectory resolve() {
        return DataDirectory.resolve(dataDir);
    }

    /** The data directory, or a usage error of {@code --data-dir} of {@code command} that says what is wrong with it. */
    public DataDirectory resolve(CommandLine command) {
        try {
            return resolve();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(command, "--data-dir: " + e.getMessage());
        }
    }
}
