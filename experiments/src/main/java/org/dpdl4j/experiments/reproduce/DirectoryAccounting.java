package org.dpdl4j.experiments.reproduce;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dpdl4j.experiments.report.AtomicFiles;
import org.dpdl4j.privacy.accounting.AccountantFactory;

/**
 * What shaped every row of a reproduction's directory, kept in its {@code accounting.txt}: the accountant that priced
 * (and calibrated) them on the first line, then one {@code name=value} line per setting that the rows themselves do not
 * record (delta, the noise source, the rounds...). A reproduction that continues a directory keeps its earlier rows, so
 * it must make the new ones as the earlier were made, or one table would mix epsilons, noises or labels of two set-ups
 * (rows of seeded noise summarised as secure, epsilons calibrated at another delta). A directory whose rows were written
 * before the file existed was priced by Renyi DP ({@link AccountantFactory#RDP}), the only accountant then; a setting
 * its file does not record (an earlier version wrote it) is not guessed: the refusal says how to record it.
 */
final class DirectoryAccounting {
    static final String FILE = "accounting.txt";

    private DirectoryAccounting() {
    }

    /**
     * Checks that the rows already in {@code dir} (any of {@code resultFiles}) were priced by {@code accountant} and made
     * with {@code settings}, then records them.
     *
     * @param settings     the settings that shape every row and that no row records, by option name (without the
     *                     dashes), as the option takes them
     * @param howToMatch   how the user prices a run as the earlier rows were, or null when the command has no choice
     * @param howToDiscard how the user starts afresh instead, e.g. {@code --fresh to discard the earlier rows}
     * @throws IllegalArgumentException when the earlier rows were made otherwise, naming how and the fix
     */
    static void claim(Path dir, String accountant, Map<String, String> settings, List<String> resultFiles, String howToMatch,
                      String howToDiscard) {
        Path marker = dir.resolve(FILE);
        boolean rows = resultFiles.stream().anyMatch(f -> Files.isRegularFile(dir.resolve(f)));
        Record earlier = earlier(marker, rows);
        String elsewhere = "give another --out (or " + howToDiscard + ")";
        if (earlier != null && !earlier.accountant().equals(accountant)) {
            throw new IllegalArgumentException(dir + " holds rows priced by the " + earlier.accountant() + " accountant, but"
                    + " this run prices by " + accountant + "; one table does not mix the two: "
                    + (howToMatch == null ? "" : howToMatch.replace("%s", earlier.accountant()) + ", or ") + elsewhere);
        }
        for (Map.Entry<String, String> s : settings.entrySet()) {
            String was = earlier == null ? null : earlier.settings().get(s.getKey());
            if (was == null && rows) {
                throw new IllegalArgumentException(dir + " holds rows whose --" + s.getKey() + " its " + FILE + " does not"
                        + " record (an earlier version wrote it); if they were made with --" + s.getKey() + " " + s.getValue()
                        + " (this run's), add the line '" + s.getKey() + "=" + s.getValue() + "' to " + marker + "; else "
                        + elsewhere);
            }
            if (was != null && !was.equals(s.getValue())) {
                throw new IllegalArgumentException(dir + " holds rows made with --" + s.getKey() + " " + was + ", but this run"
                        + " has --" + s.getKey() + " " + s.getValue() + "; one table does not mix the two: pass --" + s.getKey()
                        + " " + was + ", or " + elsewhere);
            }
        }
        StringBuilder text = new StringBuilder(accountant).append('\n');
        new TreeMap<>(settings).forEach((name, value) -> text.append(name).append('=').append(value).append('\n'));
        try {
            AtomicFiles.replace(marker, text.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + marker + ": " + e.getMessage(), e);
        }
    }

    /** Forgets what made the directory's rows, for a run that discards them. */
    static void forget(Path dir) {
        try {
            Files.deleteIfExists(dir.resolve(FILE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + dir.resolve(FILE) + ": " + e.getMessage(), e);
        }
    }

    /** The accountant and settings on record. */
    private record Record(String accountant, Map<String, String> settings) {
    }

    private static Record earlier(Path marker, boolean rows) {
        if (!Files.isRegularFile(marker)) {
            return rows ? new Record(AccountantFactory.RDP, Map.of()) : null;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(marker, StandardCharsets.UTF_8).stream().map(String::strip)
                    .filter(l -> !l.isEmpty()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + marker + ": " + e.getMessage(), e);
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(marker + " is empty; its first line names the accountant that priced the"
                    + " directory's rows (e.g. rdp): write it, or give another --out");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(marker + ": the line '" + line + "' is not name=value (after the first"
                        + " line, which names the accountant); mend it, or give another --out");
            }
            settings.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
        }
        return new Record(lines.get(0), settings);
    }
}
