package org.dpdl4j.data.catalog;

import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.dpdl4j.data.io.FileProblem;

/**
 * The directory that holds the data sets, in the layout of the catalog ({@code mnist/...},
 * {@code a9a/...}, {@code covtype/...}), and where its location came from.
 *
 * <p>Resolution order: an explicit path (the {@code --data-dir} option), else the environment
 * variable {@value #ENVIRONMENT_VARIABLE}, else {@code ~/.dpdl4j/data}. Error messages say which
 * source was used, so a user who expected another directory knows what to change.
 *
 * @param path   the directory (it need not exist yet)
 * @param source where the path came from
 */
public record DataDirectory(Path path, Source source) {
    /** The environment variable that names the data directory. */
    public static final String ENVIRONMENT_VARIABLE = "DPDL4J_DATA";
    /** The default location, relative to the user's home directory. */
    public static final String DEFAULT_RELATIVE_TO_HOME = ".dpdl4j/data";

    /** Where a data directory's location came from. */
    public enum Source {
        /** Given explicitly (the {@code --data-dir} option or a library call). */
        EXPLICIT("given with --data-dir"),
        /** Read from the environment variable {@value DataDirectory#ENVIRONMENT_VARIABLE}. */
        ENVIRONMENT("from the environment variable " + ENVIRONMENT_VARIABLE),
        /** The default {@code ~/.dpdl4j/data}. */
        DEFAULT("the default ~/" + DEFAULT_RELATIVE_TO_HOME + ", as neither --data-dir nor " + ENVIRONMENT_VARIABLE
                + " was given");

        private final String description;

        Source(String description) {
            this.description = description;
        }

        /** How this source reads in a sentence ("from the environment variable DPDL4J_DATA"). */
        public String description() {
            return description;
        }
    }

    public DataDirectory {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(source, "source");
        path = path.toAbsolutePath().normalize();
    }

    /** An explicitly given directory. */
    public static DataDirectory of(Path path) {
        return new DataDirectory(path, Source.EXPLICIT);
    }

    /** Resolves the directory from the explicit path (may be null), the process environment and the home directory. */
    public static DataDirectory resolve(Path explicit) {
        return resolve(explicit, System.getenv(), Path.of(System.getProperty("user.home")));
    }

    /**
     * Resolves the directory from the given explicit path (may be null), environment and home directory.
     *
     * @throws IllegalArgumentException when the path is a file, or lies under one: no data set can be found there
     */
    public static DataDirectory resolve(Path explicit, Map<String, String> environment, Path home) {
        return locate(explicit, environment, home).refuseAFile();
    }

    private static DataDirectory locate(Path explicit, Map<String, String> environment, Path home) {
        if (explicit != null) {
            return new DataDirectory(explicit, Source.EXPLICIT);
        }
        String env = environment.get(ENVIRONMENT_VARIABLE);
        if (env != null) {
            if (env.isBlank()) {
                throw new IllegalArgumentException("the environment variable " + ENVIRONMENT_VARIABLE
                        + " is set but empty; set it to the data directory, unset it to use ~/"
                        + DEFAULT_RELATIVE_TO_HOME + ", or pass --data-dir DIR");
            }
            return new DataDirectory(Path.of(env), Source.ENVIRONMENT);
        }
        return new DataDirectory(home.resolve(DEFAULT_RELATIVE_TO_HOME), Source.DEFAULT);
    }

    /** This directory, unless a file stands where it or a directory above it should be. */
    private DataDirectory refuseAFile() {
        for (Path p = path; p != null; p = p.getParent()) {
            if (Files.exists(p)) {
                if (Files.isDirectory(p)) {
                    return this;
                }
                throw new IllegalArgumentException("the data directory " + describe() + (p.equals(path) ? " is a file,"
                        + " not a directory" : " cannot exist: " + p + " above it is a file, not a directory")
                        + "; give the directory that holds the data sets (mnist/, a9a/, covtype/): " + howToChange());
            }
        }
        return this;
    }

    /**
     * The path of a catalog-relative file such as {@code mnist/train-images-idx3-ubyte.gz} (which
     * need not exist). Named apart from the static {@link #resolve(Path)}, so that
     * {@code DataDirectory.resolve(null)} has one meaning.
     */
    public Path locate(String relativePath) {
        Path p = path.resolve(relativePath).normalize();
        if (!p.startsWith(path)) {
            throw new IllegalArgumentException("relative path " + relativePath + " leaves the data directory " + path);
        }
        return p;
    }

    /**
     * The path of a file that must be a readable regular file, for reading data set {@code dataset}.
     *
     * @throws FileSystemException naming the file, what is wrong with it (missing, a directory, not
     *                             readable, ...), the directory and its source, and the fix;
     *                             {@link java.nio.file.NoSuchFileException} when it is missing
     */
    public Path require(String relativePath, String dataset) throws FileSystemException {
        Path p = locate(relativePath);
        Optional<FileProblem> problem = FileProblem.of(p);
        if (problem.isPresent()) {
            throw problem.get().exception(p, requireMessage(relativePath, dataset, problem.get()));
        }
        return p;
    }

    /** The message of {@link #require} for a file with the given problem. */
    String requireMessage(String relativePath, String dataset, FileProblem problem) {
        String fix = switch (problem) {
            case MISSING -> "run 'dpdl4j datasets fetch " + dataset + "'";
            case DIRECTORY, NOT_A_FILE -> "move it out of the way and run 'dpdl4j datasets fetch " + dataset + "'";
            case UNDER_A_FILE -> "move the file above it out of the way and run 'dpdl4j datasets fetch " + dataset + "'";
            case UNREADABLE, INACCESSIBLE -> problem.fix();
        };
        return "data set " + dataset + " needs " + relativePath + " in the data directory " + describe() + ", but it "
                + problem.problem() + ". Fix: " + fix + ", or " + howToChange();
    }

    /** The directory and its source: "/data (from the environment variable DPDL4J_DATA)". */
    public String describe() {
        return path + " (" + source.description() + ")";
    }

    /** How to use another directory. */
    public String howToChange() {
        return "use another directory with --data-dir DIR or the environment variable " + ENVIRONMENT_VARIABLE
                + " (default ~/" + DEFAULT_RELATIVE_TO_HOME + ")";
    }
}
