package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DoctorCommandTest {
    @TempDir
    Path tmp;

    @Test
    void describesTheBackendMemoryAndAnEmptyDataDirectory() {
        CommandRun r = CommandRun.of("doctor", "--data-dir", tmp.toString());
        assertEquals(0, r.exitCode(), r.err());
        for (String line : new String[]{"Java ", "ND4J        CPU backend", "device    CPU", "BLAS ", "OpenMP ", "Memory ",
                "Data        " + tmp}) {
            assertTrue(r.out().contains(line), "missing '" + line + "' in\n" + r.out());
        }
        assertTrue(r.out().contains("mnist/train-images-idx3-ubyte.gz") && r.out().contains("missing"), r.out());
    }

    @Test
    void aMissingDataDirectorySaysHowToGetOne() {
        CommandRun r = CommandRun.of("doctor", "--data-dir", tmp.resolve("nowhere").toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("It does not exist") && r.out().contains("dpdl4j datasets fetch NAME"), r.out());
    }

    @Test
    void aDamagedDataFileIsAWarningAndExitStatusOne() throws IOException {
        Files.createDirectories(tmp.resolve("a9a"));
        Files.writeString(tmp.resolve("a9a/a9a.gz"), "+1 1:1\n");
        CommandRun r = CommandRun.of("doctor", "--data-dir", tmp.toString());
        assertEquals(1, r.exitCode());
        assertTrue(r.out().contains("MISMATCH") && r.out().contains("fetch them again"), r.out());
    }
}
