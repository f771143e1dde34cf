package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run that cannot fit is refused before it writes anything: no run directory, no partial files. */
class MemoryRefusalTest {
    @TempDir
    Path tmp;

    /** A small valid a9a (not the canonical one), so that no real data is needed. */
    private Path smallA9a() throws IOException {
        Path dir = tmp.resolve("data").resolve("a9a");
        Files.createDirectories(dir);
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            rows.append(i % 2 == 0 ? "+1 " : "-1 ").append(1 + i % 7).append(":1 ").append(20 + i % 11).append(":1\n");
        }
        gzip(dir.resolve("a9a.gz"), rows.toString());
        gzip(dir.resolve("a9a.t.gz"), "+1 3:1\n-1 5:1\n");
        return dir.getParent();
    }

    private static void gzip(Path file, String text) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(text.getBytes(StandardCharsets.US_ASCII));
        }
    }

    @Test
    void sixtyThousandClientsOfAWideNetworkAreRefusedBeforeTheRunDirectoryIsMade() throws IOException {
        Path out = tmp.resolve("run");
        CommandRun r = CommandRun.of("train", "--dataset", "a9a", "--data-dir", smallA9a().toString(), "--algo", "dp-fedavg-central",
                "--machines", "60000", "--model", "mlp", "--hidden", "4096", "--clip", "1", "--epsilon", "3", "--out", out.toString());
        assertEquals(1, r.exitCode(), r.both());
        assertTrue(r.err().contains("dp-fedavg-central with 60000 clients of a model of 516,098 parameters needs about"), r.both());
        assertTrue(r.err().contains("clients (--machines "), r.both());
        assertFalse(Files.exists(out), "a refused run made " + out);
    }
}
