package org.dpdl4j.data.catalog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.dpdl4j.data.io.FileProblem;

/**
 * Checks the files of the catalog's data sets in a data directory: streams each present file
 * through SHA-256, counts its rows, and reports verified / MISMATCH / missing / UNUSABLE (a directory
 * or an unreadable file in its place) / present unverified.
 */
public final class DatasetVerifier {
    private final DataDirectory directory;

    /** A verifier for the given data directory. */
    public DatasetVerifier(DataDirectory directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    /** The reports of every file of every catalog entry, in catalog order. */
    public List<FileReport> verifyAll() throws IOException {
        List<FileReport> out = new ArrayList<>();
        for (CatalogEntry e : DatasetCatalog.entries()) {
            out.addAll(verify(e));
        }
        return out;
    }

    /** The reports of one entry: one per known file, or one for a user-provided data set. */
    public List<FileReport> verify(CatalogEntry entry) throws IOException {
        if (entry instanceof Dataset d) {
            List<FileReport> out = new ArrayList<>(d.files().size());
            for (KnownFile f : d.files()) {
                out.add(verify(d.name(), f));
            }
            return out;
        }
        return List.of(verifyUserProvided((UserProvidedDataset) entry));
    }

    /** The report of one known file. */
    public FileReport verify(String dataset, KnownFile file) throws IOException {
        Path p = directory.locate(file.relativePath());
        OptionalLong expected = OptionalLong.of(file.expectedRows());
        Optional<FileProblem> problem = FileProblem.of(p);
        if (problem.isPresent()) {
            return problemReport(dataset, file.relativePath(), problem.get(), expected);
        }
        HashCheck check = HashCheck.of(p, file);
        RowsOrReason rows = countRows(p, file.rowCounting());
        if (check.matches()) {
            String detail = check.byContent() ? "content verified (the gzip bytes differ from the reference copy)" : "";
            return new FileReport(dataset, file.relativePath(), FileStatus.VERIFIED, rows.rows, expected,
                    join(detail, rows.reason));
        }
        return new FileReport(dataset, file.relativePath(), FileStatus.MISMATCH, rows.rows, expected,
                join(check.describeMismatch(file), rows.reason));
    }

    private FileReport verifyUserProvided(UserProvidedDataset d) throws IOException {
        for (String candidate : d.candidatePaths()) {
            Path p = directory.locate(candidate);
            Optional<FileProblem> problem = FileProblem.of(p);
            if (problem.isEmpty()) {
                RowsOrReason rows = countRows(p, d.rowCounting());
                return new FileReport(d.name(), candidate, FileStatus.PRESENT_UNVERIFIED, rows.rows, OptionalLong.empty(),
                        rows.reason);
            }
            if (problem.get() != FileProblem.MISSING) {
                return problemReport(d.name(), candidate, problem.get(), OptionalLong.empty());
            }
        }
        List<String> others = d.candidatePaths().subList(1, d.candidatePaths().size());
        return new FileReport(d.name(), d.candidatePaths().get(0), FileStatus.MISSING, OptionalLong.empty(),
                OptionalLong.empty(), "optional, download by hand from " + d.source()
                        + (others.isEmpty() ? "" : " (also accepted: " + String.join(", ", others) + ")"));
    }

    /** The report of a file that is missing, or present but not a readable file (the detail says why and the fix). */
    private FileReport problemReport(String dataset, String relativePath, FileProblem problem, OptionalLong expected) {
        if (problem == FileProblem.MISSING) {
            return new FileReport(dataset, relativePath, FileStatus.MISSING, OptionalLong.empty(), expected, "");
        }
        return new FileReport(dataset, relativePath, FileStatus.UNUSABLE, OptionalLong.empty(), expected,
                directory.locate(relativePath) + " " + problem.problem() + "; fix: " + problem.fix());
    }

    private record RowsOrReason(OptionalLong rows, String reason) {
    }

    private static RowsOrReason countRows(Path p, RowCounting counting) {
        try {
            return new RowsOrReason(OptionalLong.of(RowCounter.count(p, counting)), "");
        } catch (IOException e) {
            return new RowsOrReason(OptionalLong.empty(), "rows not counted: " + e.getMessage());
        }
    }

    private static String join(String a, String b) {
        if (a.isEmpty()) {
            return b;
        }
        return b.isEmpty() ? a : a + "; " + b;
    }

    /** The reports as a text table: data set, file, rows, expected rows, status, then any details. */
    public static String table(List<FileReport> reports) {
        int wName = "DATASET".length();
        int wFile = "FILE".length();
        for (FileReport r : reports) {
            wName = Math.max(wName, r.dataset().length());
            wFile = Math.max(wFile, r.relativePath().length());
        }
        String format = "%-" + wName + "s  %-" + wFile + "s  %8s  %8s  %s%n";
        StringBuilder s = new StringBuilder(String.format(format, "DATASET", "FILE", "ROWS", "EXPECTED", "STATUS"));
        List<String> notes = new ArrayList<>();
        for (FileReport r : reports) {
            s.append(String.format(format, r.dataset(), r.relativePath(),
                    r.rows().isPresent() ? Long.toString(r.rows().getAsLong()) : "-",
                    r.expectedRows().isPresent() ? Long.toString(r.expectedRows().getAsLong()) : "-",
                    r.status().label()));
            if (!r.detail().isEmpty()) {
                notes.add(r.relativePath() + ": " + r.detail());
            }
        }
        for (String note : notes) {
            s.append("  * ").append(note).append(System.lineSeparator());
        }
        return s.toString();
    }
}
