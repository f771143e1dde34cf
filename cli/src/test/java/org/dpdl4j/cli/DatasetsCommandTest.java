package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dpdl4j.data.RealData;
import org.dpdl4j.data.catalog.DatasetCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetsCommandTest {
    @TempDir
    Path tmp;

    private static Path realDataDirectory() {
        RealData.file(DatasetCatalog.A9A_TRAIN);
        return RealData.directory().path();
    }

    @Test
    void emptyDirectoryListsEverythingAsMissing() {
        CommandRun r = CommandRun.of("datasets", "--data-dir", tmp.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("Data directory: " + tmp + " (given with --data-dir)"), r.out());
        assertTrue(r.out().contains("mnist/train-images-idx3-ubyte.gz") && r.out().contains("missing"), r.out());
        assertTrue(r.out().contains("dpdl4j datasets fetch NAME"), r.out());
    }

    @Test
    void mismatchingFileGivesExitCodeOne() throws IOException {
        Files.createDirectories(tmp.resolve("a9a"));
        Files.writeString(tmp.resolve("a9a/a9a.gz"), "+1 1:1\n");
        CommandRun r = CommandRun.of("datasets", "--data-dir", tmp.toString());
        assertEquals(1, r.exitCode());
        assertTrue(r.out().contains("MISMATCH"), r.out());
        assertTrue(r.err().contains("do not match"), r.err());
    }

    @Test
    void realDataDirectoryIsVerified() {
        Path data = realDataDirectory();
        CommandRun r = CommandRun.of("datasets", "--data-dir", data.toString());
        assertEquals(0, r.exitCode(), r.err());
        long verified = r.out().lines().filter(l -> l.endsWith("verified") && !l.contains("unverified")).count();
        assertEquals(8, verified, r.out());
        assertTrue(r.out().contains("32561"), r.out());
    }

    @Test
    void unknownDatasetIsAUsageError() {
        CommandRun r = CommandRun.of("datasets", "fetch", "cifar", "--data-dir", tmp.toString());
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("unknown data set 'cifar'"), r.err());
    }

    @Test
    void fetchFromALoopbackMirror() throws IOException {
        Path data = realDataDirectory();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                Path file = data.resolve(exchange.getRequestURI().getPath().substring(1)).normalize();
                if (!file.startsWith(data) || !Files.isRegularFile(file)) {
                    exchange.sendResponseHeaders(404, -1);
                    return;
                }
                byte[] bytes = Files.readAllBytes(file);
                exchange.sendResponseHeaders(200, bytes.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        });
        server.start();
        try {
            String mirror = "http://127.0.0.1:" + server.getAddress().getPort();
            Path target = tmp.resolve("fetched");
            CommandRun r = CommandRun.of("datasets", "fetch", "a9a", "--data-dir", target.toString(), "--mirror", mirror);
            assertEquals(0, r.exitCode(), r.err());
            assertTrue(r.out().contains("a9a/a9a.gz: downloaded and verified"), r.out());
            assertTrue(r.out().contains("a9a/a9a.t.gz: downloaded and verified"), r.out());
            CommandRun again = CommandRun.of("datasets", "--data-dir", target.toString(), "fetch", "a9a", "--mirror", mirror);
            assertEquals(0, again.exitCode(), again.err());
            assertTrue(again.out().contains("already present and verified"), again.out());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void anUnreachableSourceIsReportedWithItsReasonNeverNull() {
        CommandRun r = CommandRun.of("datasets", "fetch", "a9a", "--data-dir", tmp.toString(), "--mirror", "http://127.0.0.1:1/");
        assertEquals(1, r.exitCode(), r.both());
        assertTrue(r.err().contains("dpdl4j datasets fetch a9a failed: cannot connect to 127.0.0.1"), r.err());
        assertTrue(!r.err().contains("null"), r.err());
    }
}
