package org.dpdl4j.experiments.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The output directory of one run: {@code --out DIR} when given, else {@code runs/<yyyyMMdd-HHmmss>-<name>}
 * under the working directory. An existing run is never overwritten: when the directory exists and is not
 * empty, {@code -2}, {@code -3}, ... is appended. Directories are created atomically, so two processes
 * started in the same second get different directories.
 *
 * <p>A run directory is claimed for its process ({@link DirectoryLock}) before anything is written in it, so two
 * processes never share one. Files inside are written whole or not at all (written to a temporary file, then moved
 * into place), except {@link MetricsCsv}, which appends and flushes row by row.
 */
public final class RunDirectory implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RunDirectory.class);

    /** Name of the configuration file. */
    public static final String CONFIG_FILE = "config.json";
    /** Directory, under the working directory, holding runs without {@code --out}. */
    public static final String RUNS = "runs";

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final int MAX_SUFFIX = 10_000;

    private final Path path;
    private final DirectoryLock lock;

    private RunDirectory(Path path, DirectoryLock lock) {
        this.path = path;
        this.lock = lock;
    }

    /**
     * Creates the directory of a run in the current working directory with the system clock.
     *
     * @param out  the directory given with {@code --out}, or {@code null} for {@code runs/<stamp>-<name>}
     * @param name short name of the run (letters, digits, '.', '_', '-'), e.g. {@code train-mnist}
     */
    public static RunDirectory create(Path out, String name) {
        return create(out, name, Path.of("").toAbsolutePath(), Clock.systemDefaultZone());
    }

    /**
     * Creates the directory of a run.
     *
     * @param out              the directory given with {@code --out} (relative to {@code workingDirectory}),
     *                         or {@code null}
     * @param name             short name of the run (letters, digits, '.', '_', '-')
     * @param workingDirectory where {@code runs/} and a relative {@code out} are resolved
     * @param clock            source of the time stamp (in the clock's zone)
     */
    public static RunDirectory create(Path out, String name, Path workingDirectory, Clock clock) {
        Objects.requireNonNull(workingDirectory, "workingDirectory must not be null");
        Objects.requireNonNull(clock, "clock must not be null");
        checkName(name);
        Path base = out != null
                ? workingDirectory.resolve(out).normalize()
                : workingDirectory.resolve(RUNS).resolve(STAMP.format(LocalDateTime.now(clock)) + "-" + name);
        try {
            Path parent = base.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            for (int suffix = 1; suffix <= MAX_SUFFIX; suffix++) {
                Path created = createFresh(base, out != null, suffix);
                Optional<DirectoryLock> claimed = DirectoryLock.tryClaim(created, "dpdl4j " + name);
                if (claimed.isEmpty() || !isEmptyBut(created, DirectoryLock.FILE_NAME)) {
                    claimed.ifPresent(DirectoryLock::close);
                    suffix = suffixOf(created, base);   // another process took it first: try the next name
                    continue;
                }
                if (!created.equals(base)) {
                    if (out != null) {
                        LOG.warn("--out {} already holds a run; writing this run to {}", base, created);
                    } else {
                        LOG.info("{} already exists; writing this run to {}", base, created);
                    }
                }
                return new RunDirectory(created, claimed.get());
            }
            throw new IOException("more than " + MAX_SUFFIX + " runs named " + base.getFileName() + " exist beside it");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the run directory " + base + ": " + e.getMessage()
                    + "; check that its parent is writable or give another --out", e);
        }
    }

    private static void checkName(String name) {
        if (name == null || !SAFE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("run name '" + name + "' must start with a letter or digit and hold "
                    + "only letters, digits, '.', '_' and '-' (it becomes part of a directory name)");
        }
    }

    /**
     * Claims exactly {@code out} for a run: it must be new or empty, or, when {@code resuming}, hold the run being
     * resumed. A directory that another process holds, or that holds another run, is refused and left untouched.
     *
     * @param purpose what the run is, for the lock file and messages
     * @throws IllegalStateException naming the problem and the fix
     */
    public static RunDirectory claim(Path out, String purpose, boolean resuming) {
        Objects.requireNonNull(out, "out");
        if (Files.isRegularFile(out)) {
            throw new IllegalStateException("--out " + out + " is a file, not a directory; give a directory");
        }
        DirectoryLock lock = DirectoryLock.claim(out, purpose);
        try {
            if (!resuming && !isEmptyBut(out, DirectoryLock.FILE_NAME)) {
                throw new IllegalStateException("--out " + out + " already holds a run (" + firstEntry(out) + "); a run never"
                        + " overwrites another: give another --out, or continue that run with --resume " + out);
            }
        } catch (IOException | RuntimeException e) {
            lock.close();
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new UncheckedIOException("cannot read " + out + ": " + e.getMessage(), (IOException) e);
        }
        return new RunDirectory(out, lock);
    }

    private static String firstEntry(Path dir) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (!p.getFileName().toString().equals(DirectoryLock.FILE_NAME)) {
                    return "e.g. " + p.getFileName();
                }
            }
        }
        return "nothing";
    }

    private static int suffixOf(Path created, Path base) {
        String name = created.getFileName().toString();
        String prefix = base.getFileName() + "-";
        return name.startsWith(prefix) ? Integer.parseInt(name.substring(prefix.length())) : 1;
    }

    private static boolean isEmptyBut(Path directory, String ignored) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path p : entries) {
                if (!p.getFileName().toString().equals(ignored)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The first of base-suffix, base-(suffix+1), ... that this call creates (or, for --out, that exists empty). */
    private static Path createFresh(Path base, boolean explicit, int from) throws IOException {
        for (int suffix = from; suffix <= MAX_SUFFIX; suffix++) {
            Path candidate = suffix == 1 ? base : base.resolveSibling(base.getFileName() + "-" + suffix);
            try {
                return Files.createDirectory(candidate);
            } catch (FileAlreadyExistsException e) {
                if (Files.isRegularFile(candidate) && suffix == 1 && explicit) {
                    throw new IOException("--out " + candidate + " is a file, not a directory");
                }
                // An empty directory made for this run (e.g. by the user with mkdir) is used as it is.
                if (explicit && suffix == 1 && Files.isDirectory(candidate) && isEmptyBut(candidate, DirectoryLock.FILE_NAME)) {
                    return candidate;
                }
            }
        }
        throw new IOException("more than " + MAX_SUFFIX + " runs named " + base.getFileName() + " exist beside it");
    }

    /** The directory of the run. */
    public Path path() {
        return path;
    }

    /**
     * A folder inside the run, created if missing, under this directory's claim (closing it releases nothing): for
     * files kept apart from the run's top level, e.g. a tuning's operator-only record.
     *
     * @param name a plain name (letters, digits, '.', '_', '-')
     */
    public RunDirectory folder(String name) {
        Path folder = file(name);
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + folder + ": " + e.getMessage(), e);
        }
        return new RunDirectory(folder, null);
    }

    /**
     * A file of the run, by plain file name (no directories).
     *
     * @throws IllegalArgumentException for names with separators, "..", or characters unsafe in file names
     */
    public Path file(String fileName) {
        if (fileName == null || !SAFE_NAME.matcher(fileName).matches() || fileName.contains("..")) {
            throw new IllegalArgumentException("file name '" + fileName + "' must be a plain name of letters, digits, "
                    + "'.', '_' and '-' (no directories), e.g. metrics.csv");
        }
        return path.resolve(fileName);
    }

    /**
     * Writes {@code config.json}: {@code {"provenance": ..., "config": ...}}, the configuration being any
     * record, bean or map that Jackson can write.
     */
    public Path writeConfig(Object config, Provenance provenance) {
        Objects.requireNonNull(config, "config must not be null");
        Objects.requireNonNull(provenance, "provenance must not be null");
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("provenance", provenance);
        document.put("config", config);
        return writeJson(CONFIG_FILE, document);
    }

    /** Writes any value as pretty-printed JSON, replacing the file as a whole. */
    public Path writeJson(String fileName, Object value) {
        Path target = file(fileName);
        String json;
        try {
            json = ReportJson.mapper().writeValueAsString(value) + "\n";
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON for "
                    + target + ": " + e.getMessage(), e);
        }
        return writeText(fileName, json);
    }

    /** Writes text (UTF-8), replacing the file as a whole. */
    public Path writeText(String fileName, String text) {
        Objects.requireNonNull(text, "text must not be null");
        Path target = file(fileName);
        try {
            return AtomicFiles.replace(target, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    /** Numbered files of one kind, e.g. model-node-12.zip: prefix, number, extension. */
    private static final Pattern NUMBERED = Pattern.compile("(.+-)(\\d+)(\\.[A-Za-z0-9]+)");

    /**
     * Every file the directory holds, for the line that lists a run's files: by name, numbered files of one kind as one
     * entry ({@code model-node-<i>.zip (16 files)}), and the lock file last, with what it is. A run directory is empty
     * when claimed, so this names exactly what the run wrote (a resumed run's earlier files included). Folders are not
     * listed, and a {@link #folder}'s listing has no lock file.
     */
    public String listing() {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
            for (Path p : entries) {
                if (Files.isRegularFile(p) && !p.getFileName().toString().equals(DirectoryLock.FILE_NAME)) {
                    names.add(p.getFileName().toString());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the run directory " + path + ": " + e.getMessage(), e);
        }
        Collections.sort(names);
        Map<String, Integer> families = new TreeMap<>();
        for (String name : names) {
            Matcher m = NUMBERED.matcher(name);
            if (m.matches()) {
                families.merge(m.group(1) + "<i>" + m.group(3), 1, Integer::sum);
            }
        }
        List<String> shown = new ArrayList<>();
        for (String name : names) {
            Matcher m = NUMBERED.matcher(name);
            String family = m.matches() ? m.group(1) + "<i>" + m.group(3) : null;
            if (family == null || families.get(family) < 3) {
                shown.add(name);
            } else if (!shown.contains(family + " (" + families.get(family) + " files)")) {
                shown.add(family + " (" + families.get(family) + " files)");
            }
        }
        if (lock != null) {
            shown.add(DirectoryLock.LISTED);
        }
        return String.join(", ", shown);
    }

    /** Releases the directory's claim (a {@link #folder} holds none of its own). */
    @Override
    public void close() {
        if (lock != null) {
            lock.close();
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
