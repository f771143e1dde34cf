package org.dpdl4j.data.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.dpdl4j.data.RealData;
import org.dpdl4j.data.TestFiles;
import org.dpdl4j.data.catalog.CanonicalDataCheck.Policy;
import org.dpdl4j.data.catalog.FileVerdict.Verdict;
import org.dpdl4j.data.io.Sha256;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CanonicalDataCheckTest {
    private static final String ACCEPT = "pass --allow-non-canonical-data";
    private static final String A = "toy/a.csv.gz";
    private static final String B = "toy/b.csv.gz";

    @TempDir
    Path tmp;

    private DataDirectory dir;
    private Path cacheFile;
    private Dataset toy;
    private final AtomicInteger hashed = new AtomicInteger();

    /** Two small files whose hashes the test computes and puts in a catalog entry of its own. */
    @BeforeEach
    void writeFixtures() throws IOException {
        dir = DataDirectory.of(tmp.resolve("data"));
        cacheFile = tmp.resolve("state/verified-files.txt");
        toy = new Dataset("toy", "two small files", List.of(known(A, "a,b\n1,2\n"), known(B, "c\n3\n4\n")), "none");
    }

    private KnownFile known(String relativePath, String content) throws IOException {
        Path stored = TestFiles.text(dir.path(), relativePath, content);
        String contentSha = Sha256.ofContent(stored);
        return new KnownFile(relativePath, Sha256.of(stored), contentSha, 2, URI.create("http://example.org/" + relativePath),
                SourceEncoding.AS_STORED, RowCounting.TEXT_LINES);
    }

    /** A check as a fresh run makes it, counting the files it hashes. */
    private CanonicalCheckResult run(Policy policy) throws IOException {
        return run(toy, policy);
    }

    private CanonicalCheckResult run(CatalogEntry entry, Policy policy) throws IOException {
        CanonicalDataCheck check = new CanonicalDataCheck(cacheFile, ACCEPT, (file, known) -> {
            hashed.incrementAndGet();
            return HashCheck.of(file, known);
        });
        return check.check(dir, entry, policy);
    }

    private static void assertMentions(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "lacks '" + part + "': " + message);
        }
    }

    @Test
    void matchingFilesAreHashedOnceThenServedFromTheCache() throws IOException {
        CanonicalCheckResult first = run(Policy.ERROR);
        assertTrue(first.allCanonical());
        assertEquals(List.of(A, B), first.files().stream().map(FileVerdict::relativePath).toList());
        assertTrue(first.files().stream().noneMatch(FileVerdict::cached));
        assertEquals(toy.files().get(0).sha256(), first.files().get(0).actualSha256());
        assertEquals(List.of(), first.warnings());
        assertEquals(2, hashed.get());
        assertTrue(Files.readString(cacheFile).startsWith("# dpdl4j verified data files"));

        CanonicalCheckResult second = run(Policy.ERROR);
        assertTrue(second.allCanonical());
        assertTrue(second.files().stream().allMatch(FileVerdict::cached));
        assertEquals(2, hashed.get(), "the second run must not hash");
        assertTrue(second.cacheWarning().isEmpty());
        try (Stream<Path> files = Files.list(cacheFile.getParent())) {
            assertEquals(List.of(cacheFile), files.toList(), "no temporary file is left beside the cache");
        }
    }

    @Test
    void aDecompressedCopyMatchesByContentAlsoFromTheCache() throws IOException {
        Files.writeString(dir.locate(A), "a,b\n1,2\n"); // the same content, stored uncompressed
        for (boolean cached : new boolean[] {false, true}) {
            FileVerdict v = run(Policy.ERROR).files().get(0);
            assertEquals(Verdict.MATCHES, v.verdict());
            assertEquals(cached, v.cached());
            assertMentions(v.detail(), "content verified");
        }
        assertEquals(2, hashed.get());
    }

    @Test
    void mismatchWarnsOrFailsNamingFileAndHashes() throws IOException {
        KnownFile a = toy.files().get(0);
        Files.write(dir.locate(A), TestFiles.gzip("a,b\n1,9\n".getBytes(StandardCharsets.US_ASCII)));
        String actual = Sha256.of(dir.locate(A));

        CanonicalCheckResult warned = run(Policy.WARN);
        assertFalse(warned.allCanonical());
        FileVerdict v = warned.mismatches().get(0);
        assertEquals(Verdict.MISMATCH, v.verdict());
        assertEquals(a.sha256(), v.expectedSha256());
        assertEquals(actual, v.actualSha256());
        assertEquals(Verdict.MATCHES, warned.files().get(1).verdict());
        assertEquals(1, warned.warnings().size());
        assertMentions(warned.warnings().get(0), A, dir.locate(A).toString(), "expected SHA-256 " + a.sha256(),
                "actual " + actual, "decompressed content: expected " + a.contentSha256(),
                "Fix: move it away and run 'dpdl4j datasets fetch toy'");

        ChecksumMismatchException e = assertThrows(ChecksumMismatchException.class, () -> run(Policy.ERROR));
        assertEquals(A, e.relativePath());
        assertEquals(a.sha256(), e.expectedSha256());
        assertEquals(actual, e.actualSha256());
        assertMentions(e.getMessage(), "data set toy", A, "expected SHA-256 " + a.sha256(), "actual " + actual,
                "dpdl4j datasets fetch toy", "or " + ACCEPT + " to train on it anyway");
        assertEquals(2, hashed.get(), "the mismatch verdict is cached too: only the first run hashes");
    }

    @Test
    void aChangedSizeOrModificationTimeInvalidatesTheCache() throws IOException {
        run(Policy.ERROR);
        assertEquals(2, hashed.get());
        Path a = dir.locate(A);
        FileTime original = Files.getLastModifiedTime(a);

        Files.setLastModifiedTime(a, FileTime.fromMillis(original.toMillis() + 5_000));
        CanonicalCheckResult touched = run(Policy.ERROR);
        assertEquals(3, hashed.get(), "only the touched file is hashed again");
        assertFalse(touched.files().get(0).cached());
        assertTrue(touched.files().get(1).cached());

        Files.write(a, TestFiles.gzip("a,b\n1,2\n3,4\n".getBytes(StandardCharsets.US_ASCII)));
        Files.setLastModifiedTime(a, FileTime.fromMillis(original.toMillis() + 5_000)); // same time, new size
        CanonicalCheckResult grown = run(Policy.WARN);
        assertEquals(4, hashed.get());
        assertEquals(Verdict.MISMATCH, grown.files().get(0).verdict());
        assertFalse(grown.files().get(0).cached());
    }

    @Test
    void aNewCatalogHashIsNotAnsweredFromTheCache() throws IOException {
        run(Policy.ERROR);
        KnownFile a = toy.files().get(0);
        KnownFile changed = new KnownFile(A, "0".repeat(64), null, 2, a.sources(), a.sourceEncoding(), a.rowCounting());
        CanonicalCheckResult r = run(new Dataset("toy", "changed", List.of(changed), "none"), Policy.WARN);
        assertEquals(3, hashed.get());
        assertEquals(Verdict.MISMATCH, r.files().get(0).verdict());
    }

    @Test
    void aCorruptCacheIsIgnoredWithOneWarningAndRewritten() throws IOException {
        Files.createDirectories(cacheFile.getParent());
        Files.writeString(cacheFile, "# dpdl4j verified data files, version 1\n12\tnot a number\tgarbage\n");
        CanonicalCheckResult r = run(Policy.ERROR);
        assertTrue(r.allCanonical());
        assertEquals(2, hashed.get());
        assertMentions(r.cacheWarning().orElseThrow(), cacheFile.toString(), "is damaged at line 2", "Fix: delete it");

        CanonicalCheckResult next = run(Policy.ERROR);
        assertTrue(next.cacheWarning().isEmpty(), "the damaged cache was replaced by a good one");
        assertEquals(2, hashed.get());
    }

    @Test
    void aCacheFromAnotherVersionOrNotTextIsIgnored() throws IOException {
        Files.createDirectories(cacheFile.getParent());
        Files.write(cacheFile, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        assertMentions(run(Policy.ERROR).cacheWarning().orElseThrow(), "cannot be read");
        Files.writeString(cacheFile, "{\"json\": true}\n");
        assertMentions(run(Policy.ERROR).cacheWarning().orElseThrow(), "does not start with");
        assertEquals(4, hashed.get());
    }

    @Test
    void aCacheThatCannotBeReadOrWrittenNeverFailsTheCheck() throws IOException {
        Files.createDirectories(cacheFile); // a directory where the cache file should be
        CanonicalCheckResult r = run(Policy.ERROR);
        assertTrue(r.allCanonical());
        assertMentions(r.cacheWarning().orElseThrow(), cacheFile.toString(), "cannot be read");
        assertEquals(2, hashed.get());
        run(Policy.ERROR);
        assertEquals(4, hashed.get(), "nothing could be cached");
    }

    @Test
    void aMissingFileIsReportedLikeEveryRequiredFile() throws IOException {
        Files.delete(dir.locate(B));
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> run(Policy.WARN));
        assertMentions(e.getMessage(), B, "does not exist", "dpdl4j datasets fetch toy");
    }

    @Test
    void userProvidedDataIsNotCanonicalButNeverFails() throws IOException {
        Path full = TestFiles.text(dir.path(), "covtype/covtype.data.gz", "1,2\n");
        CanonicalCheckResult r = run(CanonicalDataCheck.entry("covtype-full"), Policy.ERROR);
        FileVerdict v = r.files().get(0);
        assertEquals(Verdict.NOT_CANONICAL, v.verdict());
        assertEquals("covtype/covtype.data.gz", v.relativePath());
        assertEquals(full, v.path());
        assertFalse(r.allCanonical());
        assertMentions(r.warnings().get(0), "covtype/covtype.data.gz", "no SHA-256 for data set covtype-full");
        assertEquals(0, hashed.get());
    }

    @Test
    void trainCommandNamesMapToCatalogEntries() {
        assertEquals("covtype-93k", CanonicalDataCheck.entry("covtype").name());
        for (String name : new String[] {"mnist", "a9a", "covtype-20k"}) {
            assertEquals(name, CanonicalDataCheck.entry(name).name());
        }
        assertMentions(assertThrows(IllegalArgumentException.class, () -> CanonicalDataCheck.entry("cifar")).getMessage(),
                "unknown data set 'cifar'", "mnist", "covtype (= covtype-93k)");
    }

    @Test
    void theRealDataSetsAreCanonical() throws IOException {
        DataDirectory real = RealData.directory();
        for (String name : new String[] {"mnist", "a9a", "covtype", "covtype-20k"}) {
            CanonicalDataCheck check = new CanonicalDataCheck(cacheFile, ACCEPT);
            CanonicalCheckResult r = check.check(real, name, Policy.ERROR);
            assertTrue(r.allCanonical(), name + ": " + r.files());
            assertTrue(check.check(real, name, Policy.ERROR).files().stream().allMatch(FileVerdict::cached), name);
        }
    }
}
