package org.dpdl4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.dpdl4j.data.catalog.CatalogEntry;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.catalog.Dataset;
import org.dpdl4j.data.catalog.DatasetCatalog;
import org.dpdl4j.data.catalog.DatasetFetcher;
import org.dpdl4j.data.catalog.DatasetVerifier;
import org.dpdl4j.data.catalog.FetchResult;
import org.dpdl4j.data.catalog.FileReport;
import org.dpdl4j.data.catalog.FileStatus;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code dpdl4j datasets}: lists the known data sets with the state of each file in the data
 * directory (rows counted, SHA-256 verified), and {@code dpdl4j datasets fetch NAME} downloads one.
 * Exit code 1 when a file does not match its hash or a fetch fails.
 */
@Command(name = "datasets", mixinStandardHelpOptions = true, subcommands = DatasetsCommand.Fetch.class,
        description = {"List the known data sets and check the files of the data directory: rows, SHA-256 status "
                + "(verified, MISMATCH, missing, present unverified).",
            "The data directory is --data-dir, else $" + DataDirectory.ENVIRONMENT_VARIABLE + ", else ~/"
                + DataDirectory.DEFAULT_RELATIVE_TO_HOME + "."})
public final class DatasetsCommand implements Callable<Integer> {
    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Data directory (default: $" + DataDirectory.ENVIRONMENT_VARIABLE + ", else ~/"
                    + DataDirectory.DEFAULT_RELATIVE_TO_HOME + ").")
    Path dataDir;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        DataDirectory dir = resolve(dataDir);
        out.println("Data directory: " + dir.describe());
        if (!Files.isDirectory(dir.path())) {
            out.println("  It does not exist yet: 'dpdl4j datasets fetch NAME' creates it, or "
                    + dir.howToChange() + ".");
        }
        out.println();
        List<FileReport> reports = new DatasetVerifier(dir).verifyAll();
        out.print(DatasetVerifier.table(reports));
        out.println();
        out.println("Fetch a data set with: dpdl4j datasets fetch NAME   (NAME: " + fetchableNames() + ")");
        out.flush();
        if (reports.stream().anyMatch(r -> r.status() == FileStatus.MISMATCH)) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("Some files do not match the catalog's SHA-256 (see MISMATCH above): they are damaged or "
                    + "different files. Move them away and fetch them again.");
            err.flush();
            return 1;
        }
        return 0;
    }

    private DataDirectory resolve(Path explicit) {
        try {
            return DataDirectory.resolve(explicit);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private static String fetchableNames() {
        return DatasetCatalog.entries().stream().filter(e -> e instanceof Dataset).map(CatalogEntry::name)
                .collect(Collectors.joining(", "));
    }

    /** {@code dpdl4j datasets fetch NAME}: downloads, resumes and verifies the files of one data set. */
    @Command(name = "fetch", mixinStandardHelpOptions = true,
            description = {"Download the files of a data set into the data directory, resuming interrupted downloads "
                    + "and verifying each file's SHA-256 before it is put in place.",
                "Every source is HTTPS; when one fails (unreachable, an HTTP error, other bytes), the file's next"
                        + " source is tried, and an error names each source with what went wrong."})
    static final class Fetch implements Callable<Integer> {
        @ParentCommand
        DatasetsCommand parent;

        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "NAME", description = "The data set: mnist, a9a, covtype-93k or covtype-20k.")
        String name;

        @Option(names = "--data-dir", paramLabel = "DIR",
                description = "Data directory (default: $" + DataDirectory.ENVIRONMENT_VARIABLE + ", else ~/"
                        + DataDirectory.DEFAULT_RELATIVE_TO_HOME + ").")
        Path dataDir;

        @Option(names = "--mirror", paramLabel = "URL",
                description = "Fetch from this base URL only, instead of the catalog's sources; it must have the layout"
                        + " of a data directory (URL/mnist/..., URL/a9a/..., URL/covtype/...).")
        URI mirror;

        @Override
        public Integer call() {
            Dataset dataset;
            DatasetFetcher fetcher;
            DataDirectory dir;
            try {
                dataset = DatasetCatalog.dataset(name);
                dir = DataDirectory.resolve(dataDir != null ? dataDir : parent.dataDir);
                fetcher = DatasetFetcher.create(dir, Optional.ofNullable(mirror));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            out.println("Fetching " + dataset.name() + " into " + dir.describe());
            out.flush();
            try {
                for (FetchResult r : fetcher.fetch(dataset)) {
                    out.println("  " + r.relativePath() + ": " + describe(r));
                    out.flush();
                }
            } catch (IOException e) {
                err.println("dpdl4j datasets fetch " + name + " failed: " + DatasetFetcher.reason(e));
                err.flush();
                return 1;
            }
            out.println("Cite: " + dataset.citation());
            out.flush();
            return 0;
        }

        private static String describe(FetchResult r) {
            return switch (r.outcome()) {
                case ALREADY_VERIFIED -> "already present and verified";
                case DOWNLOADED -> "downloaded and verified (" + r.bytesTransferred() + " bytes from " + r.source() + ")";
                case RESUMED -> "resumed and verified (" + r.bytesTransferred() + " more bytes from " + r.source() + ")";
            };
        }
    }
}
