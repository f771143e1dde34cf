package org.dpdl4j.experiments.reproduce;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dpdl4j.experiments.report.AtomicFiles;
import org.dpdl4j.privacy.accounting.AccountantFactory;

/**
 * Which accountant priced the rows of a reproduction's directory, kept in its {@code accounting.txt}: a reproduction
 * that continues a directory keeps its earlier rows, so it must price (and calibrate) the new ones as the earlier were
 * priced, or one table would mix epsilons and noises of two accountants. A directory whose rows were written before
 * the file existed was priced by Renyi DP ({@link AccountantFactory#RDP}), the only accountant then.
 */
final class DirectoryAccounting {
    static final String FILE = "accounting.txt";

    private DirectoryAccounting() {
    }

    /**
     * Checks that the rows already in {@code dir} (any of {@code resultFiles}) were priced by {@code accountant}, then
     * records it.
     *
     * @param howToMatch how the user prices a run as the earlier rows were, or null when the command has no choice
     * @param howToDiscard how the user starts afresh instead, e.g. {@code --fresh to discard the earlier rows}
     * @throws IllegalArgumentException when the earlier rows were priced by another accountant, naming it and the fix
     */
    static void claim(Path dir, String accountant, List<String> resultFiles, String howToMatch, String howToDiscard) {
        Path marker = dir.resolve(FILE);
        String earlier = earlier(dir, marker, resultFiles);
        if (earlier != null && !earlier.equals(accountant)) {
            throw new IllegalArgumentException(dir + " holds rows priced by the " + earlier + " accountant, but this run"
                    + " prices by " + accountant + "; one table does not mix the two: "
                    + (howToMatch == null ? "" : howToMatch.replace("%s", earlier) + ", or ")
                    + "give another --out (or " + howToDiscard + ")");
        }
        try {
            AtomicFiles.replace(marker, accountant + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + marker + ": " + e.getMessage(), e);
        }
    }

    /** Forgets which accountant priced the directory's rows, for a run that discards them. */
    static void forget(Path dir) {
        try {
            Files.deleteIfExists(dir.resolve(FILE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + dir.resolve(FILE) + ": " + e.getMessage(), e);
        }
    }

    private static String earlier(Path dir, Path marker, List<String> resultFiles) {
        try {
            if (Files.isRegularFile(marker)) {
                return Files.readString(marker, StandardCharsets.UTF_8).strip();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + marker + ": " + e.getMessage(), e);
        }
        return resultFiles.stream().anyMatch(f -> Files.isRegularFile(dir.resolve(f))) ? AccountantFactory.RDP : null;
    }
}
