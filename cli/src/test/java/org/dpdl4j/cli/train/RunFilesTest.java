package org.dpdl4j.cli.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.dpdl4j.cli.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files a train run lists are the files its directory holds, every one of them. */
class RunFilesTest {
    @TempDir
    Path tmp;

    @Test
    void theRunFilesLineNamesEveryFileTheRunWrote() throws IOException {
        Path out = tmp.resolve("ldp");
        CommandRun r = CommandRun.of("train", "--algo", "ldp", "--dataset", "synthetic-lsq", "--epsilon", "10", "--clip", "1",
                "--rounds", "20", "--save-node-models", "--noise", "seeded", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.both());
        List<String> lines = r.out().lines().toList();
        int at = lines.indexOf("Run files: " + out.toAbsolutePath());
        assertTrue(at >= 0, r.out());
        String listed = lines.get(at + 1);
        List<String> written;
        try (Stream<Path> files = Files.list(out)) {
            written = files.map(p -> p.getFileName().toString()).sorted().toList();
        }
        for (String name : written) {
            String shown = name.matches("model-node-\\d+\\.zip") ? "model-node-<i>.zip (16 files)" : name;
            assertTrue(listed.contains(shown), name + " is written but not listed: " + listed);
        }
        for (String name : List.of("config.json", "metrics.csv", "checkpoint.bin", "model.zip", "nodes.csv", "privacy.txt",
                "summary.md", "training.png", ".dpdl4j.lock")) {
            assertTrue(written.contains(name), name + " in " + written);
        }
    }
}
