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
import org.dpdl4j.runtime.RunFilePermissions;

/**
 * The output directory of one run: exactly {@code --out DIR} when given (never another: a directory that holds
 * another run, or output of another command, is refused, see {@link #claim}), else a new
 * {@code runs/<yyyyMMdd-HHmmss>-<name>} under the working directory ({@code -2}, {@code -3}, ... appended when that
 * name is taken; directories are created atomically, so two processes started in the same second get different ones).
 *
 * <p>A run directory is claimed for its process ({@link DirectoryLock}) before anything is written in it, so two
 * processes never share one. A run that ends without writing anything (it failed first) leaves the directory as it
 * found it: closing abandons the claim, and removes the directory if the run created it. Files inside are written whole or not at all (written to a temporary file, then moved
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
    /** The command the lock file recorded before this claim: restored if the run writes nothing. */
    private final Optional<String> writtenBefore;
    /** Whether this run created the directory (and so removes it if it writes nothing). */
    private final boolean createdDirectory;

    private RunDirectory(Path path, DirectoryLock lock, Optional<String> writtenBefore, boolean createdDirectory) {
        this.path = path;
        this.lock = lock;
        this.writtenBefore = writtenBefore;
        this.createdDirectory = createdDirectory;
    }

    /** What a claimed {@code --out} directory may already hold. */
    public enum Reuse {
        /** Nothing (a lock file aside): a new run never writes over another. */
        NOTHING,
        /**
         * Earlier output of the same command: a resumed run, or a reproduction that keeps the runs it finished. A
         * directory that another command wrote is refused.
         */
        SAME_COMMAND
    }

    /**
     * The directory of a run of {@code command}: exactly {@code out} when it is given (claimed, see
     * {@link #claim(Path, String, String, Reuse)}, holding nothing yet), else a new {@code runs/<stamp>-<name>} in the
     * current working directory.
     *
     * @param out     the directory given with {@code --out}, or {@code null}
     * @param command the command, e.g. "dpdl4j attack dlg" (recorded in the lock file)
     * @param name    short name of the run for a directory of its own (letters, digits, '.', '_', '-'), e.g.
     *                {@code attack-dlg}
     */
    public static RunDirectory of(Path out, String command, String name) {
        return out != null ? claim(out, command, command, Reuse.NOTHING) : fresh(name);
    }

    /**
     * Creates a new directory {@code runs/<yyyyMMdd-HHmmss>-<name>} in the current working directory, with the system
     * clock.
     *
     * @param name short name of the run (letters, digits, '.', '_', '-'), e.g. {@code train-mnist}
     */
    public static RunDirectory fresh(String name) {
        return fresh(name, Path.of("").toAbsolutePath(), Clock.systemDefaultZone());
    }

    /**
     * Creates a new directory {@code runs/<yyyyMMdd-HHmmss>-<name>} (with {@code -2}, {@code -3}, ... when that name is
     * taken).
     *
     * @param name             short name of the run (letters, digits, '.', '_', '-')
     * @param workingDirectory where {@code runs/} is resolved
     * @param clock            source of the time stamp (in the clock's zone)
     */
    public static RunDirectory fresh(String name, Path workingDirectory, Clock clock) {
        Objects.requireNonNull(workingDirectory, "workingDirectory must not be null");
        Objects.requireNonNull(clock, "clock must not be null");
        checkName(name);
        Path base = workingDirectory.resolve(RUNS).resolve(STAMP.format(LocalDateTime.now(clock)) + "-" + name);
        try {
            Files.createDirectories(base.toAbsolutePath().getParent());
            for (int suffix = 1; suffix <= MAX_SUFFIX; suffix++) {
                Path created = createFresh(base, suffix);
                Optional<DirectoryLock> claimed = DirectoryLock.tryClaim(created, "dpdl4j " + name, "dpdl4j " + name);
                if (claimed.isEmpty() || !isEmptyBut(created, DirectoryLock.FILE_NAME)) {
                    claimed.ifPresent(DirectoryLock::close);
                    suffix = suffixOf(created, base);   // another process took it first: try the next name
                    continue;
                }
                if (!created.equals(base)) {
                    LOG.info("{} already exists; writing this run to {}", base, created);
                }
                RunFilePermissions.restrictDirectory(created);
                return new RunDirectory(created, claimed.get(), Optional.empty(), true);
            }
            throw new IOException("more than " + MAX_SUFFIX + " runs named " + base.getFileName() + " exist beside it");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the run directory " + base + ": " + e.getMessage()
                    + "; check that its parent is writable or give --out", e);
        }
    }

    private static void checkName(String name) {
        if (name == null || !SAFE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("run name '" + name + "' must start with a letter or digit and hold "
                    + "only letters, digits, '.', '_' and '-' (it becomes part of a directory name)");
        }
    }

    /**
     * Claims exactly {@code out} for a run of {@code command}, the one way every command takes its {@code --out}: the
     * directory is created if missing, locked for this process (a directory another process holds is refused), made
     * readable by its owner alone ({@link org.dpdl4j.runtime.RunFilePermissions}), and must hold what {@code reuse}
     * allows. A refused directory is left as it was found.
     *
     * @param command the command, e.g. "dpdl4j reproduce recal": a directory another command wrote is not reused
     * @param purpose what the run is, for the lock file while it runs and for messages
     * @throws IllegalStateException naming the problem and the fix
     */
    public static RunDirectory claim(Path out, String command, String purpose, Reuse reuse) {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(reuse, "reuse");
        if (Files.isRegularFile(out)) {
            throw new IllegalStateException("--out " + out + " is a file, not a directory; give a directory");
        }
        Optional<String> writtenBy = DirectoryLock.recordedCommand(out);
        boolean createdDirectory = !Files.exists(out);
        DirectoryLock lock = DirectoryLock.claim(out, command, purpose);
        try {
            if (reuse == Reuse.NOTHING && !isEmptyBut(out, DirectoryLock.FILE_NAME)) {
                throw new IllegalStateException("--out " + out + " already holds a run (" + firstEntry(out) + "); a run never"
                        + " overwrites another: give another --out"
                        + (Files.isRegularFile(out.resolve(org.dpdl4j.runtime.RunCheckpoint.FILE_NAME))
                        ? ", or continue that run with --resume " + out : ""));
            }
            if (reuse == Reuse.SAME_COMMAND && writtenBy.isPresent() && !writtenBy.get().equals(command)
                    && !isEmptyBut(out, DirectoryLock.FILE_NAME)) {
                throw new IllegalStateException("--out " + out + " holds the output of '" + writtenBy.get() + "', not of '"
                        + command + "'; the two are never mixed in one directory: give another --out");
            }
            // only once the claim stands: a refused directory keeps its permissions
            RunFilePermissions.restrictDirectory(out);
        } catch (IOException | RuntimeException e) {
            lock.abandon(writtenBy);
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new UncheckedIOException("cannot read " + out + ": " + e.getMessage(), (IOException) e);
        }
        return new RunDirectory(out, lock, writtenBy, createdDirectory);
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

    /** The first of base-suffix, base-(suffix+1), ... that this call creates. */
    private static Path createFresh(Path base, int from) throws IOException {
        for (int suffix = from; suffix <= MAX_SUFFIX; suffix++) {
            Path candidate = suffix == 1 ? base : base.resolveSibling(base.getFileName() + "-" + suffix);
            try {
                return Files.createDirectory(candidate);
            } catch (FileAlreadyExistsException e) {
                // taken: try the next name
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
        return new RunDirectory(folder, null, Optional.empty(), false);
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
        return writeFile(fileName, f -> Files.writeString(f, text, java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * Writes a file whole (what {@code content} writes to the path it is given), replacing any earlier one, or leaves
     * the earlier one as it was.
     *
     * @throws UncheckedIOException naming the file and the reason (a full disk, say)
     */
    public Path writeFile(String fileName, AtomicFiles.Content content) {
        Path target = file(fileName);
        try {
            return AtomicFiles.replace(target, content);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + AtomicFiles.reason(e), e);
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

    /**
     * Releases the directory's claim (a {@link #folder} holds none of its own). When the run wrote nothing (it failed
     * before its first file), the directory is left as the run found it: the claim is abandoned, and the directory
     * removed if the run created it.
     */
    @Override
    public void close() {
        if (lock == null) {
            return;
        }
        if (!holdsOnlyTheLock()) {
            lock.close();
            return;
        }
        lock.abandon(writtenBefore);
        if (createdDirectory) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                // Another claim wrote into it meanwhile (not empty), or it cannot be removed: it stays, harmlessly.
                LOG.debug("kept the run directory {}: {}", path, e.toString());
            }
        }
    }

    private boolean holdsOnlyTheLock() {
        try {
            return isEmptyBut(path, DirectoryLock.FILE_NAME);
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
