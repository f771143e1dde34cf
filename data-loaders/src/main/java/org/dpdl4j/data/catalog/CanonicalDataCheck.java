package org.dpdl4j.data.catalog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks, before training, that the files a data set reads are the catalog's canonical files, so
 * that a damaged or different copy does not pass for the real data set.
 *
 * <p>Each file is hashed (SHA-256, see {@link HashCheck}) once; the verdict is cached in a small
 * text file (see {@link VerifiedFileCache}) keyed by the file's absolute path, size and
 * last-modified time, so later runs hash it again only when it changed. A cache that cannot be read
 * or written never fails the check: the files are hashed instead, and
 * {@link CanonicalCheckResult#cacheWarning()} says why.
 */
public final class CanonicalDataCheck {
    private static final Logger LOG = LoggerFactory.getLogger(CanonicalDataCheck.class);
    /** Names of the train command that differ from the catalog's. */
    private static final Map<String, String> TRAIN_NAMES = Map.of("covtype", "covtype-93k");

    /** What to do when a file is not canonical. */
    public enum Policy {
        /** Return the result; the caller prints {@link CanonicalCheckResult#warnings()}. */
        WARN,
        /** Throw a {@link ChecksumMismatchException} when a file's hash differs from the catalog's. */
        ERROR
    }

    /** Compares a file with a catalog entry; {@link HashCheck#of} unless a test counts the calls. */
    @FunctionalInterface
    public interface Hasher {
        /** The hash check of the file against the known hashes. */
        HashCheck check(Path file, KnownFile known) throws IOException;
    }

    private final Path cacheFile;
    private final String acceptFix;
    private final Hasher hasher;

    /**
     * A check that hashes with {@link HashCheck#of}.
     *
     * @param cacheFile    where verdicts are cached, e.g. {@code ~/.dpdl4j/verified-files.txt} (it need not exist)
     * @param acceptFix   what the user does to accept non-canonical data, for the ERROR message (e.g.
     *                    "drop --strict-data")
     *                     ({@code "--allow-non-canonical-data"}): "or pass ACCEPT_OPTION to train on them anyway"
     */
    public CanonicalDataCheck(Path cacheFile, String acceptFix) {
        this(cacheFile, acceptFix, HashCheck::of);
    }

    /** A check with another way of hashing (to count the hashing in tests). */
    public CanonicalDataCheck(Path cacheFile, String acceptFix, Hasher hasher) {
        this.cacheFile = Objects.requireNonNull(cacheFile, "cacheFile");
        this.acceptFix = Objects.requireNonNull(acceptFix, "acceptFix");
        this.hasher = Objects.requireNonNull(hasher, "hasher");
    }

    /**
     * The catalog entry of a data set name: a catalog name ({@code mnist}, {@code a9a},
     * {@code covtype-20k}, ...) or the train command's {@code covtype}, which reads covtype-93k.
     *
     * @throws IllegalArgumentException for an unknown name, listing the known ones
     */
    public static CatalogEntry entry(String name) {
        String catalogName = TRAIN_NAMES.getOrDefault(name, name);
        return DatasetCatalog.find(catalogName).orElseThrow(() -> new IllegalArgumentException("unknown data set '"
                + name + "'; known data sets: " + DatasetCatalog.names() + ", and covtype (= covtype-93k)"));
    }

    /** {@link #check(DataDirectory, CatalogEntry, Policy)} of the data set with this name (see {@link #entry}). */
    public CanonicalCheckResult check(DataDirectory directory, String name, Policy policy) throws IOException {
        return check(directory, entry(name), policy);
    }

    /**
     * Checks every file the data set reads.
     *
     * @throws java.nio.file.FileSystemException when a file is missing, a directory or unreadable
     *                                           (see {@link DataDirectory#require})
     * @throws ChecksumMismatchException         under {@link Policy#ERROR}, when a file's hash differs
     *                                           from the catalog's: it names the first such file and
     *                                           its hashes, the message names all of them and the fix
     */
    public CanonicalCheckResult check(DataDirectory directory, CatalogEntry entry, Policy policy) throws IOException {
        Objects.requireNonNull(policy, "policy");
        VerifiedFileCache cache = VerifiedFileCache.load(cacheFile);
        List<FileVerdict> verdicts = new ArrayList<>();
        if (entry instanceof Dataset d) {
            for (KnownFile f : d.files()) {
                verdicts.add(check(directory.require(f.relativePath(), d.name()), f, cache));
            }
        } else {
            Path p = Datasets.userFile(directory, entry.name());
            String relative = directory.path().relativize(p).toString().replace(p.getFileSystem().getSeparator(), "/");
            verdicts.add(FileVerdict.notCanonical(relative, p, entry.name()));
        }
        cache.save();
        cache.warning().ifPresent(LOG::warn);
        List<String> warnings = new ArrayList<>();
        for (FileVerdict v : verdicts) {
            switch (v.verdict()) {
                case MISMATCH -> warnings.add(describe(entry.name(), v) + ". Fix: move it away and run 'dpdl4j datasets "
                        + "fetch " + entry.name() + "' for the canonical copy");
                case NOT_CANONICAL -> warnings.add(describe(entry.name(), v) + "; results depend on your copy of it");
                case MATCHES -> {
                }
            }
        }
        CanonicalCheckResult result = new CanonicalCheckResult(entry.name(), verdicts, warnings, cache.warning());
        if (policy == Policy.ERROR && !result.mismatches().isEmpty()) {
            throw mismatch(result);
        }
        return result;
    }

    private FileVerdict check(Path file, KnownFile known, VerifiedFileCache cache) throws IOException {
        VerifiedFileCache.Key before = keyOf(file, known);
        Optional<HashCheck> cached = cache.get(before);
        if (cached.isPresent()) {
            return FileVerdict.of(known, file, cached.get(), true);
        }
        HashCheck check = hasher.check(file, known);
        if (keyOf(file, known).equals(before)) { // a file that changed while it was hashed is checked again next time
            cache.put(before, check);
        }
        return FileVerdict.of(known, file, check, false);
    }

    private static VerifiedFileCache.Key keyOf(Path file, KnownFile known) throws IOException {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        return new VerifiedFileCache.Key(file.toAbsolutePath().normalize().toString(), a.size(),
                a.lastModifiedTime().to(TimeUnit.NANOSECONDS), known.sha256(), known.contentSha256());
    }

    /** "a9a/a9a.gz (/data/a9a/a9a.gz) is not the canonical a9a file: expected SHA-256 ..., actual ...". */
    private static String describe(String dataset, FileVerdict v) {
        String what = v.verdict() == FileVerdict.Verdict.MISMATCH ? " is not the canonical " + dataset + " file: " : ": ";
        return v.relativePath() + " (" + v.path() + ")" + what + v.detail();
    }

    private ChecksumMismatchException mismatch(CanonicalCheckResult result) {
        List<FileVerdict> bad = result.mismatches();
        String files = bad.stream().map(v -> "  " + describe(result.dataset(), v)).collect(Collectors.joining("\n"));
        boolean one = bad.size() == 1;
        String message = "data set " + result.dataset() + " is not the canonical one, so training stops:\n" + files
                + "\nFix: move " + (one ? "the file" : "these files") + " away and run 'dpdl4j datasets fetch "
                + result.dataset() + "' for the canonical " + (one ? "copy" : "copies") + ", or " + acceptFix
                + " to train on " + (one ? "it" : "them") + " anyway";
        FileVerdict first = bad.get(0);
        return new ChecksumMismatchException(first.relativePath(), first.expectedSha256(), first.actualSha256(), message);
    }
}
