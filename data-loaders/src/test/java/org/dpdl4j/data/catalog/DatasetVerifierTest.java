package org.dpdl4j.data.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.dpdl4j.data.RealData;
import org.dpdl4j.data.TestFiles;
import org.dpdl4j.data.io.Sha256;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetVerifierTest {
    @TempDir
    Path dir;

    private KnownFile toy(String sha, String contentSha) {
        return new KnownFile("toy/t.csv.gz", sha, contentSha, 3, URI.create("http://example.org/t"),
                SourceEncoding.AS_STORED, RowCounting.CSV_WITH_HEADER);
    }

    @Test
    void missingVerifiedContentVerifiedAndMismatch() throws IOException {
        String csv = "a,b\n1,2\n3,4\n5,6\n";
        byte[] plain = csv.getBytes(StandardCharsets.US_ASCII);
        Path stored = TestFiles.bytes(dir.resolve("ref"), "t.csv.gz", plain);
        Path plainFile = TestFiles.bytes(dir.resolve("ref"), "t.csv", plain);
        KnownFile known = toy(Sha256.of(stored), Sha256.of(plainFile));
        DatasetVerifier verifier = new DatasetVerifier(DataDirectory.of(dir));

        FileReport missing = verifier.verify("toy", known);
        assertEquals(FileStatus.MISSING, missing.status());
        assertFalse(missing.rows().isPresent());

        Files.createDirectories(dir.resolve("toy"));
        Files.copy(stored, dir.resolve(known.relativePath()));
        FileReport ok = verifier.verify("toy", known);
        assertEquals(FileStatus.VERIFIED, ok.status());
        assertEquals(3, ok.rows().getAsLong());
        assertEquals("", ok.detail());

        // The same content compressed differently: verified by content.
        byte[] recompressed = gzipLevel(plain, Deflater.NO_COMPRESSION);
        Files.write(dir.resolve(known.relativePath()), recompressed);
        FileReport byContent = verifier.verify("toy", known);
        assertEquals(FileStatus.VERIFIED, byContent.status());
        assertTrue(byContent.detail().contains("content verified"), byContent.detail());

        Files.write(dir.resolve(known.relativePath()), TestFiles.gzip("a,b\n1,2\n".getBytes(StandardCharsets.US_ASCII)));
        FileReport bad = verifier.verify("toy", known);
        assertEquals(FileStatus.MISMATCH, bad.status());
        assertTrue(bad.detail().contains("expected SHA-256 " + known.sha256()), bad.detail());
        assertEquals(1, bad.rows().getAsLong());

        String table = DatasetVerifier.table(List.of(missing, ok, bad));
        assertTrue(table.contains("DATASET") && table.contains("MISMATCH") && table.contains("missing")
                && table.contains("verified"), table);
    }

    /** The content gzip-compressed at the given level (GZIPOutputStream's default level is 6). */
    private static byte[] gzipLevel(byte[] content, int level) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes) {
            {
                def.setLevel(level);
            }
        }) {
            out.write(content);
        }
        return bytes.toByteArray();
    }

    @Test
    void aDirectoryInAFilesPlaceIsUnusableNotMissing() throws IOException {
        KnownFile known = toy("0".repeat(64), null);
        Path inTheWay = Files.createDirectories(dir.resolve(known.relativePath()));
        FileReport r = new DatasetVerifier(DataDirectory.of(dir)).verify("toy", known);
        assertEquals(FileStatus.UNUSABLE, r.status());
        assertTrue(r.detail().contains(inTheWay + " is a directory, not a file; fix: "), r.detail());
        IOException counting = assertThrows(IOException.class, () -> RowCounter.count(inTheWay, RowCounting.TEXT_LINES));
        assertTrue(counting.getMessage().contains(inTheWay + ": is a directory, not a file"), counting.getMessage());
    }

    @Test
    void anUnreadableFileIsUnusable() throws IOException {
        KnownFile known = toy("0".repeat(64), null);
        Path p = TestFiles.unreadable(dir, known.relativePath());
        FileReport r = new DatasetVerifier(DataDirectory.of(dir)).verify("toy", known);
        assertEquals(FileStatus.UNUSABLE, r.status());
        assertTrue(r.detail().contains(p + " exists but is not readable (permission denied)"), r.detail());
    }

    @Test
    void userProvidedFilesArePresentUnverified() throws IOException {
        TestFiles.text(dir, "covtype/covtype.data.gz", "1,2\n3,4\n5,6\n");
        TestFiles.bytes(dir, "covtype/covtype.libsvm.binary.scale.bz2", "BZh91AY&SY".getBytes(StandardCharsets.US_ASCII));
        List<FileReport> reports = new DatasetVerifier(DataDirectory.of(dir)).verifyAll();
        FileReport full = reports.stream().filter(r -> r.dataset().equals("covtype-full")).findFirst().orElseThrow();
        assertEquals(FileStatus.PRESENT_UNVERIFIED, full.status());
        assertEquals("covtype/covtype.data.gz", full.relativePath());
        assertEquals(3, full.rows().getAsLong());
        FileReport binary = reports.stream().filter(r -> r.dataset().equals("covtype-binary")).findFirst().orElseThrow();
        assertEquals(FileStatus.PRESENT_UNVERIFIED, binary.status());
        assertFalse(binary.rows().isPresent());
        assertTrue(binary.detail().contains("bzip2"), binary.detail());
        assertTrue(reports.stream().filter(r -> r.dataset().equals("mnist"))
                .allMatch(r -> r.status() == FileStatus.MISSING));
    }

    @Test
    void everyKnownFileOfTheRealDataDirectoryIsVerified() throws IOException {
        DataDirectory real = RealData.directory();
        for (CatalogEntry e : DatasetCatalog.entries()) {
            if (e instanceof Dataset d) {
                d.files().forEach(f -> RealData.file(f.relativePath()));
            }
        }
        List<FileReport> reports = new DatasetVerifier(real).verifyAll();
        int known = 0;
        for (FileReport r : reports) {
            if (r.expectedRows().isPresent()) {
                known++;
                assertEquals(FileStatus.VERIFIED, r.status(), r.relativePath() + ": " + r.detail());
                assertEquals(r.expectedRows().getAsLong(), r.rows().getAsLong(), r.relativePath());
                assertEquals("", r.detail(), r.relativePath());
            }
        }
        assertEquals(8, known);
    }
}
