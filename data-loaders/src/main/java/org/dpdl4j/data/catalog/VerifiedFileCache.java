package org.dpdl4j.data.catalog;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dpdl4j.data.io.Sha256;

/**
 * The remembered hash checks of data files, so that a file is hashed once and not on every run.
 *
 * <p>An entry holds for one file as it was: its absolute path, size and last-modified time, and
 * the catalog hashes it was compared with (a new catalog version is checked afresh). One line per
 * entry, tab-separated, the path last so that it may hold tabs:
 * {@code size  modified-ns  expected  expected-content|-  bytes|content|mismatch  actual  actual-content|-  path}.
 *
 * <p>The cache only saves work, so it never fails a run: a file that cannot be read or parsed is
 * treated as empty, and a file that cannot be written is left as it was; either is reported once
 * by {@link #warning()}. The file is replaced atomically (a temporary file renamed over it), so a
 * reader never sees half a file; when two runs write at once, the last one wins and the other's new
 * entries are hashed again next time.
 */
final class VerifiedFileCache {
    private static final String HEADER = "# dpdl4j verified data files, version 1";
    private static final int FIELDS = 8;
    private static final String REBUILD = "delete it; the next run writes a new one";

    private final Path file;
    private final Map<Key, HashCheck> entries = new LinkedHashMap<>();
    private String warning;
    private boolean changed;

    /**
     * What a cached check depends on.
     *
     * @param path          the absolute, normalised path
     * @param size          the size in bytes
     * @param modifiedNanos the last-modified time, in nanoseconds since the epoch
     * @param expected      the catalog's SHA-256 of the stored bytes
     * @param expectedContent the catalog's SHA-256 of the content, or {@code null}
     */
    record Key(String path, long size, long modifiedNanos, String expected, String expectedContent) {
    }

    private VerifiedFileCache(Path file) {
        this.file = file;
    }

    /** The cache stored in the file; empty, with a {@link #warning()}, when the file is unreadable or damaged. */
    static VerifiedFileCache load(Path file) {
        VerifiedFileCache cache = new VerifiedFileCache(file);
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return cache;
        } catch (IOException e) { // unreadable, a directory, or not UTF-8
            cache.warn("cannot be read (" + describe(e) + "), so it is ignored and the data files are hashed",
                    "make it readable, or delete it");
            return cache;
        }
        if (!lines.isEmpty() && !lines.get(0).equals(HEADER)) {
            cache.warn("does not start with '" + HEADER + "' (it is damaged or from another version), so it is "
                    + "ignored and the data files are hashed", REBUILD);
            return cache;
        }
        for (int i = 1; i < lines.size(); i++) {
            if (!lines.get(i).isBlank() && !cache.parse(lines.get(i))) {
                cache.entries.clear(); // a damaged file may hold more damage that happens to parse
                cache.warn("is damaged at line " + (i + 1) + ", so it is ignored and the data files are hashed", REBUILD);
                break;
            }
        }
        return cache;
    }

    /** The remembered check of a file in the state the key describes. */
    Optional<HashCheck> get(Key key) {
        return Optional.ofNullable(entries.get(key));
    }

    /**
     * Remembers a check. Checks that cannot be written as a line (a path with a line break, a
     * content hash replaced by a reason it could not be computed) are not kept: they are rare and
     * merely hashed again.
     */
    void put(Key key, HashCheck check) {
        boolean storable = !key.path().contains("\n") && !key.path().contains("\r")
                && (check.actualContent() == null || Sha256.isHexDigest(check.actualContent()));
        if (storable && !check.equals(entries.get(key))) {
            entries.keySet().removeIf(k -> k.path().equals(key.path())); // an older state of the same file
            entries.put(key, check);
            changed = true;
        }
    }

    /** Writes the cache when it changed: into a temporary file beside it, then renamed over it. */
    void save() {
        if (!changed) {
            return;
        }
        // Files that are gone (a moved data directory, a test's temporary files) leave the cache.
        entries.keySet().removeIf(k -> !Files.exists(Path.of(k.path())));
        Path tmp = null;
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            tmp = Files.createTempFile(dir, file.getFileName() + ".", ".tmp");
            try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                out.write(HEADER + "\n");
                for (Map.Entry<Key, HashCheck> e : entries.entrySet()) {
                    out.write(format(e.getKey(), e.getValue()) + "\n");
                }
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            changed = false;
        } catch (IOException e) {
            warn("cannot be written (" + describe(e) + "), so the data files will be hashed again next time",
                    "make its directory writable, or keep the cache elsewhere");
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the warning above already says the cache was not written
                }
            }
        }
    }

    /** The first problem with the cache file, if any: it is then treated as empty or left unwritten. */
    Optional<String> warning() {
        return Optional.ofNullable(warning);
    }

    private void warn(String problem, String fix) {
        if (warning == null) {
            warning = "the cache of verified data files " + file + " " + problem + ". Fix: " + fix;
        }
    }

    private static String describe(IOException e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    private static String format(Key k, HashCheck c) {
        String result = c.matches() ? (c.byContent() ? "content" : "bytes") : "mismatch";
        return String.join("\t", Long.toString(k.size()), Long.toString(k.modifiedNanos()), k.expected(),
                orDash(k.expectedContent()), result, c.actualSha256(), orDash(c.actualContent()), k.path());
    }

    private boolean parse(String line) {
        String[] f = line.split("\t", FIELDS);
        if (f.length != FIELDS || f[7].isEmpty() || !Sha256.isHexDigest(f[2]) || !Sha256.isHexDigest(f[5])
                || !hexOrDash(f[3]) || !hexOrDash(f[6])) {
            return false;
        }
        boolean matches;
        boolean byContent;
        switch (f[4]) {
            case "bytes" -> {
                matches = true;
                byContent = false;
            }
            case "content" -> {
                matches = true;
                byContent = true;
            }
            case "mismatch" -> {
                matches = false;
                byContent = !f[6].equals("-");
            }
            default -> {
                return false;
            }
        }
        try {
            Key key = new Key(f[7], Long.parseLong(f[0]), Long.parseLong(f[1]), f[2], nullIfDash(f[3]));
            entries.put(key, new HashCheck(matches, byContent, f[5], nullIfDash(f[6])));
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static boolean hexOrDash(String s) {
        return s.equals("-") || Sha256.isHexDigest(s);
    }

    private static String orDash(String s) {
        return s == null ? "-" : s;
    }

    private static String nullIfDash(String s) {
        return s.equals("-") ? null : s;
    }
}
