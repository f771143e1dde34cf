package org.dpdl4j.cli;

import java.util.Arrays;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The options that take comma-separated lists ({@code --epsilons 1,3,8}). Picocli drops the empty strings that a
 * trailing comma leaves, so {@code --epsilons ,,} would be an empty list and a command would compute over nothing
 * without a word: an empty entry anywhere in a list is refused instead.
 */
final class ListOptions {
    private ListOptions() {
    }

    /**
     * Refuses a list option of the command line (or of its subcommands) with an empty entry.
     *
     * @throws ParameterException naming the option, its value and the fix
     */
    static void refuseEmptyEntries(ParseResult parsed) {
        for (ParseResult p = parsed; p != null; p = p.subcommand()) {
            for (OptionSpec option : p.matchedOptions()) {
                String separator = option.splitRegex();
                if (separator.isEmpty()) {
                    continue;
                }
                for (String value : option.originalStringValues()) {
                    if (Arrays.stream(value.split(separator, -1)).anyMatch(String::isBlank)) {
                        throw new ParameterException(p.commandSpec().commandLine(), option.longestName() + " '" + value
                                + "' has an empty entry; give the values separated by single commas, with none left"
                                + " out");
                    }
                }
            }
        }
    }
}
