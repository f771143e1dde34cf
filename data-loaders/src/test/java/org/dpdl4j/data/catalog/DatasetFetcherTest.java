package org.dpdl4j.data.catalog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.dpdl4j.data.RealData;
import org.dpdl4j.data.TestFiles;
import org.dpdl4j.data.io.DataFiles;
import org.dpdl4j.data.io.Sha256;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetFetcherTest {
    private static final String TOY = "toy/toy.txt.gz";

    @TempDir
    Path mirrorDir;
    @TempDir
    Path dataDir;

    private byte[] text;
    private KnownFile toy;

    @BeforeEach
    void writeToyFile() throws IOException {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 4000; i++) {
            s.append(i % 2 == 0 ? "+1" : "-1").append(" 1:").append(i).append(" 7:0.").append(i * 37 % 1000).append('\n');
        }
        text = s.toString().getBytes(StandardCharsets.US_ASCII);
        Path gz = TestFiles.bytes(mirrorDir, TOY, text);
        Files.write(mirrorDir.resolve("toy/toy.txt"), text); // the plain-text form, as some sources serve it
        toy = new KnownFile(TOY, Sha256.of(gz), Sha256.of(mirrorDir.resolve("toy/toy.txt")),
                4000, URI.create("http://127.0.0.1:1/unused"), SourceEncoding.AS_STORED, RowCounting.TEXT_LINES);
    }

    private DatasetFetcher fetcher(LoopbackFileServer server) {
        return DatasetFetcher.create(DataDirectory.of(dataDir), Optional.of(server.baseUri()));
    }

    private byte[] storedBytes() throws IOException {
        return Files.readAllBytes(mirrorDir.resolve(TOY));
    }

    @Test
    void downloadsVerifiesAndSkipsWhenPresent() throws IOException {
        try (LoopbackFileServer server = LoopbackFileServer.serving(mirrorDir)) {
            FetchResult r = fetcher(server).fetch(toy);
            assertEquals(FetchResult.Outcome.DOWNLOADED, r.outcome());
            assertEquals(server.baseUri().resolve(TOY), r.source());
            assertArrayEquals(storedBytes(), Files.readAllBytes(dataDir.resolve(TOY)));
            assertEquals(storedBytes().length, r.bytesTransferred());
            assertFalse(Files.exists(dataDir.resolve(TOY + ".part")));
            assertEquals(FetchResult.Outcome.ALREADY_VERIFIED, fetcher(server).fetch(toy).outcome());
            assertEquals(List.of(TOY + " -"), server.requests(), "the second fetch must not download");
        }
    }

    @Test
    void resumesATruncatedPartWithARangeRequest() throws IOException {
        byte[] stored = storedBytes();
        int have = stored.length / 3;
        Files.createDirectories(dataDir.resolve("toy"));
        Files.write(dataDir.resolve(TOY + ".part"), Arrays.copyOf(stored, have));
        try (LoopbackFileServer server = LoopbackFileServer.serving(mirrorDir)) {
            FetchResult r = fetcher(server).fetch(toy);
            assertEquals(List.of(TOY + " bytes=" + have + "-"), server.requests());
            assertEquals(FetchResult.Outcome.RESUMED, r.outcome());
            assertEquals(stored.length - have, r.bytesTransferred());
        }
        assertArrayEquals(stored, Files.readAllBytes(dataDir.resolve(TOY)));
        assertFalse(Files.exists(dataDir.resolve(TOY + ".part")));
    }

    @Test
    void completePartGets416AndIsVerified() throws IOException {
        Files.createDirectories(dataDir.resolve("toy"));
        Files.write(dataDir.resolve(TOY + ".part"), storedBytes());
        try (LoopbackFileServer server = LoopbackFileServer.serving(mirrorDir)) {
            FetchResult r = fetcher(server).fetch(toy);
            assertEquals(FetchResult.Outcome.RESUMED, r.outcome());
            assertEquals(0, r.bytesTransferred());
        }
        assertArrayEquals(storedBytes(), Files.readAllBytes(dataDir.resolve(TOY)));
    }

    @Test
    void serverIgnoringRangeRestartsFromTheFirstByte() throws IOException {
        Files.createDirectories(dataDir.resolve("toy"));
        Files.write(dataDir.resolve(TOY + ".part"), new byte[] {1, 2, 3, 4, 5, 6, 7}); // stale bytes
        try (LoopbackFileServer server = new LoopbackFileServer(mirrorDir, false, UnaryOperator.identity())) {
            FetchResult r = fetcher(server).fetch(toy);
            assertEquals(List.of(TOY + " bytes=7-"), server.requests());
            assertEquals(FetchResult.Outcome.DOWNLOADED, r.outcome());
            assertEquals(storedBytes().length, r.bytesTransferred());
        }
        assertArrayEquals(storedBytes(), Files.readAllBytes(dataDir.resolve(TOY)));
    }

    @Test
    void corruptedBytesFailWithBothHashesAndDeleteOnlyThePart() throws IOException {
        Files.createDirectories(dataDir.resolve("toy"));
        Path neighbour = Files.writeString(dataDir.resolve("toy/keep.txt"), "untouched");
        UnaryOperator<byte[]> corrupt = b -> {
            byte[] c = b.clone();
            c[c.length / 2] ^= 0x40;
            return c;
        };
        try (LoopbackFileServer server = new LoopbackFileServer(mirrorDir, true, corrupt)) {
            ChecksumMismatchException e = assertThrows(ChecksumMismatchException.class, () -> fetcher(server).fetch(toy));
            assertTrue(e.getMessage().contains("expected SHA-256 " + toy.sha256()), e.getMessage());
            byte[] served = corrupt.apply(storedBytes());
            String actual = Sha256.of(new ByteArrayInputStream(served));
            assertTrue(e.getMessage().contains("actual " + actual), e.getMessage());
            assertEquals(actual, e.actualSha256());
            assertEquals(toy.sha256(), e.expectedSha256());
            assertTrue(e.getMessage().contains("was deleted"), e.getMessage());
        }
        assertFalse(Files.exists(dataDir.resolve(TOY + ".part")));
        assertFalse(Files.exists(dataDir.resolve(TOY)));
        assertEquals("untouched", Files.readString(neighbour));
    }

    @Test
    void plainTextSourceIsCheckedByContentThenCompressed() throws IOException {
        try (LoopbackFileServer server = LoopbackFileServer.serving(mirrorDir)) {
            KnownFile plain = new KnownFile(TOY, toy.sha256(), toy.contentSha256(), 4000,
                    server.baseUri().resolve("toy/toy.txt"), SourceEncoding.PLAIN_TEXT, RowCounting.TEXT_LINES);
            DatasetFetcher canonical = DatasetFetcher.create(DataDirectory.of(dataDir), Optional.empty());
            FetchResult r = canonical.fetch(plain);
            assertEquals(FetchResult.Outcome.DOWNLOADED, r.outcome());
            assertEquals(List.of("toy/toy.txt -"), server.requests());
            Path stored = dataDir.resolve(TOY);
            assertTrue(DataFiles.isGzip(stored));
            assertEquals(toy.contentSha256(), Sha256.ofContent(stored));
            assertFalse(Files.exists(dataDir.resolve("toy/toy.txt.part")));
            assertFalse(Files.exists(dataDir.resolve(TOY + ".tmp")));
            FileReport report = new DatasetVerifier(DataDirectory.of(dataDir)).verify("toy", plain);
            assertEquals(FileStatus.VERIFIED, report.status());
            assertEquals(4000, report.rows().getAsLong());
        }
    }

    @Test
    void plainTextPartsResumeUnderTheirOwnName() {
        Path target = Path.of("a9a", "a9a.gz");
        assertEquals(Path.of("a9a", "a9a.part"), DatasetFetcher.partFileOf(target, SourceEncoding.PLAIN_TEXT));
        assertEquals(Path.of("a9a", "a9a.gz.part"), DatasetFetcher.partFileOf(target, SourceEncoding.AS_STORED));
    }

    @Test
    void existingMismatchingFileIsLeftUntouched() throws IOException {
        Path target = TestFiles.text(dataDir, TOY, "something else\n");
        byte[] before = Files.readAllBytes(target);
        try (LoopbackFileServer server = LoopbackFileServer.serving(mirrorDir)) {
            ChecksumMismatchException e = assertThrows(ChecksumMismatchException.class, () -> fetcher(server).fetch(toy));
            assertTrue(e.getMessage().contains("left untouched"), e.getMessage());
            assertTrue(server.requests().isEmpty());
        }
        assertArrayEquals(before, Files.readAllBytes(target));
    }

    @Test
    void missingRemoteFileIsAnHttpError() throws IOException {
        KnownFile absent = new KnownFile("toy/absent.gz", toy.sha256(), null, 1, toy.sources(), SourceEncoding.AS_STORED,
                RowCounting.TEXT_LINES);
        try (LoopbackFileServer server = LoopbackFileServer.serving(mirrorDir)) {
            IOException e = assertThrows(IOException.class, () -> fetcher(server).fetch(absent));
            assertTrue(e.getMessage().contains("HTTP 404") && e.getMessage().contains("--mirror"), e.getMessage());
        }
    }

    @Test
    void rangeHeaderParsing() {
        assertEquals(100, DatasetFetcher.rangeStart(Optional.of("bytes 100-199/200")));
        assertEquals(-1, DatasetFetcher.rangeStart(Optional.of("bytes */200")));
        assertEquals(-1, DatasetFetcher.rangeStart(Optional.empty()));
        assertThrows(IllegalArgumentException.class, () -> DatasetFetcher.create(DataDirectory.of(dataDir),
                Optional.of(URI.create("ftp://example.org/"))));
    }

    @Test
    void fetchesEveryCatalogDatasetFromALoopbackMirrorOfTheDataDirectory() throws IOException {
        DataDirectory real = RealData.directory();
        for (CatalogEntry e : DatasetCatalog.entries()) {
            if (e instanceof Dataset d) {
                d.files().forEach(f -> RealData.file(f.relativePath()));
            }
        }
        // An interrupted download of the largest file: its first megabyte is already there.
        String resumed = DatasetCatalog.MNIST_TRAIN_IMAGES;
        int have = 1 << 20;
        Files.createDirectories(dataDir.resolve("mnist"));
        Files.write(dataDir.resolve(resumed + ".part"),
                Arrays.copyOf(Files.readAllBytes(real.locate(resumed)), have));
        try (LoopbackFileServer server = LoopbackFileServer.serving(real.path())) {
            DatasetFetcher fetcher = fetcher(server);
            for (CatalogEntry e : DatasetCatalog.entries()) {
                if (e instanceof Dataset d) {
                    for (FetchResult r : fetcher.fetch(d)) {
                        assertEquals(r.relativePath().equals(resumed) ? FetchResult.Outcome.RESUMED
                                : FetchResult.Outcome.DOWNLOADED, r.outcome(), r.relativePath());
                    }
                    for (KnownFile f : d.files()) {
                        assertEquals(f.sha256(), Sha256.of(dataDir.resolve(f.relativePath())), f.relativePath());
                    }
                }
            }
            assertTrue(server.requests().contains(resumed + " bytes=" + have + "-"), server.requests().toString());
            assertEquals(8, server.requests().size());
        }
        for (FileReport r : new DatasetVerifier(DataDirectory.of(dataDir)).verifyAll()) {
            if (r.expectedRows().isPresent()) {
                assertEquals(FileStatus.VERIFIED, r.status(), r.relativePath());
            }
        }
    }

    /** A port nothing listens on: connecting is refused (the HTTP client's exception has no message). */
    private static URI refused(String path) {
        return URI.create("http://127.0.0.1:1/" + path);
    }

    private KnownFile toyFrom(List<URI> sources) {
        return new KnownFile(TOY, toy.sha256(), toy.contentSha256(), 4000, sources, SourceEncoding.AS_STORED,
                RowCounting.TEXT_LINES);
    }

    @Test
    void anUnreachableSourceFallsBackToTheNext() throws IOException {
        try (LoopbackFileServer server = LoopbackFileServer.serving(mirrorDir)) {
            URI good = server.baseUri().resolve(TOY);
            FetchResult r = DatasetFetcher.create(DataDirectory.of(dataDir), Optional.empty())
                    .fetch(toyFrom(List.of(refused(TOY), good)));
            assertEquals(FetchResult.Outcome.DOWNLOADED, r.outcome());
            assertEquals(good, r.source());
            assertArrayEquals(storedBytes(), Files.readAllBytes(dataDir.resolve(TOY)));
        }
    }

    @Test
    void aSourceServingOtherBytesFallsBackToTheNextFromTheFirstByte() throws IOException {
        UnaryOperator<byte[]> corrupt = b -> {
            byte[] c = b.clone();
            c[c.length / 2] ^= 0x40;
            return c;
        };
        try (LoopbackFileServer bad = new LoopbackFileServer(mirrorDir, true, corrupt);
             LoopbackFileServer good = LoopbackFileServer.serving(mirrorDir)) {
            FetchResult r = DatasetFetcher.create(DataDirectory.of(dataDir), Optional.empty())
                    .fetch(toyFrom(List.of(bad.baseUri().resolve(TOY), good.baseUri().resolve(TOY))));
            assertEquals(good.baseUri().resolve(TOY), r.source());
            assertEquals(List.of(TOY + " -"), good.requests(), "the bad download was deleted, not resumed");
            assertArrayEquals(storedBytes(), Files.readAllBytes(dataDir.resolve(TOY)));
        }
    }

    @Test
    void whenEverySourceFailsTheErrorNamesEachWithItsReasonAndNeverNull() throws IOException {
        try (LoopbackFileServer empty = LoopbackFileServer.serving(dataDir)) {
            URI missing = empty.baseUri().resolve("toy/absent.gz");
            IOException e = assertThrows(IOException.class, () -> DatasetFetcher.create(DataDirectory.of(dataDir),
                    Optional.empty()).fetch(toyFrom(List.of(refused(TOY), missing))));
            String m = e.getMessage();
            assertTrue(m.startsWith("every source of " + TOY + " failed: " + refused(TOY) + ": cannot connect to 127.0.0.1"), m);
            assertTrue(m.contains("(the connection was refused or the host is unreachable)"), m);
            assertTrue(m.contains(missing + ": HTTP 404 from " + missing), m);
            assertTrue(m.contains("Fix: check the network, or fetch from a reachable copy with --mirror URL"), m);
            assertFalse(m.contains("null"), m);
        }
        IOException single = assertThrows(IOException.class, () -> DatasetFetcher.create(DataDirectory.of(dataDir),
                Optional.empty()).fetch(toyFrom(List.of(refused(TOY)))));
        assertFalse(single.getMessage().contains("null"), single.getMessage());
        assertTrue(single.getMessage().contains("the connection was refused"), single.getMessage());
    }

    @Test
    void reasonsOfExceptionsWithoutAMessage() {
        assertEquals("the connection was refused or the host is unreachable", DatasetFetcher.reason(new java.net.ConnectException()));
        java.net.ConnectException unresolved = new java.net.ConnectException();
        unresolved.initCause(new java.nio.channels.UnresolvedAddressException());
        assertEquals("the host name cannot be resolved", DatasetFetcher.reason(unresolved));
        assertEquals("the server closed the connection before the end of the file", DatasetFetcher.reason(new java.io.EOFException()));
        assertEquals("wrapped", DatasetFetcher.reason(new IOException(null, new IOException("wrapped"))));
        assertEquals("IllegalStateException without a message", DatasetFetcher.reason(new IllegalStateException()));
    }
}
