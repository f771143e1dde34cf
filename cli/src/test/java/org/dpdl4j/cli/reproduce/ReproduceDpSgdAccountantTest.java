package org.dpdl4j.cli.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dpdl4j.cli.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code reproduce dp-sgd --accountant}: Renyi DP alone (the accounting of the committed results) calibrates more noise
 * than the default's tightest bound for the same epsilon, the summary names the accounting, and a directory priced one
 * way is not resumed the other way.
 */
class ReproduceDpSgdAccountantTest {

    @Test
    void theAccountantCalibratesTheRunsAndBindsTheDirectory(@TempDir Path tmp) throws Exception {
        String data = CommandRun.realDataDir("reproduce dp-sgd on a9a");
        Path rdp = tmp.resolve("rdp");
        Path tightest = tmp.resolve("tightest");
        CommandRun r = CommandRun.of("reproduce", "dp-sgd", "--dataset", "a9a", "--quick", "--accountant", "rdp",
                "--data-dir", data, "--out", rdp.toString());
        assertEquals(0, r.exitCode(), r.err() + r.out());
        CommandRun t = CommandRun.of("reproduce", "dp-sgd", "--dataset", "a9a", "--quick", "--data-dir", data, "--out",
                tightest.toString());
        assertEquals(0, t.exitCode(), t.err() + t.out());

        double zRdp = noiseMultiplier(rdp);
        double zTightest = noiseMultiplier(tightest);
        assertTrue(zRdp > zTightest * 1.05, "Renyi DP alone needs more noise at epsilon 1: z = " + zRdp + " against "
                + zTightest);
        assertEquals(List.of("rdp", "delta=1.0E-5"), Files.readAllLines(rdp.resolve("accounting.txt")));
        String summary = Files.readString(rdp.resolve("summary.md"));
        assertTrue(summary.contains("--accountant rdp") && summary.contains("priced by the rdp accounting (Renyi DP alone"),
                summary);

        CommandRun mixed = CommandRun.of("reproduce", "dp-sgd", "--dataset", "a9a", "--quick", "--resume", "--data-dir", data,
                "--out", rdp.toString());
        assertEquals(1, mixed.exitCode(), mixed.err() + mixed.out());
        assertTrue(mixed.err().contains("holds rows priced by the rdp accountant") && mixed.err().contains(
                "pass --accountant rdp") && mixed.err().contains("leave out --resume to start afresh"), mixed.err());
        // rows calibrated at one delta are not continued at another (the summary would claim the other for them)
        CommandRun otherDelta = CommandRun.of("reproduce", "dp-sgd", "--dataset", "a9a", "--quick", "--resume", "--data-dir",
                data, "--accountant", "rdp", "--delta", "1e-6", "--out", rdp.toString());
        assertEquals(1, otherDelta.exitCode(), otherDelta.err() + otherDelta.out());
        assertTrue(otherDelta.err().contains("made with --delta 1.0E-5, but this run has --delta 1.0E-6")
                && otherDelta.err().contains("pass --delta 1.0E-5"), otherDelta.err());
        // Following that advice works: a fresh run at the default accounting replaces the rdp rows.
        CommandRun fresh = CommandRun.of("reproduce", "dp-sgd", "--dataset", "a9a", "--quick", "--data-dir", data, "--out",
                rdp.toString());
        assertEquals(0, fresh.exitCode(), fresh.err() + fresh.out());
        assertEquals("tightest", Files.readAllLines(rdp.resolve("accounting.txt")).get(0));
        assertTrue(noiseMultiplier(rdp) < zRdp, "the fresh rows are the default accounting's");
    }

    /** The noise multiplier of the single final run of a quick reproduction. */
    private static double noiseMultiplier(Path dir) throws Exception {
        List<String> rows = Files.readAllLines(dir.resolve("results.csv"));
        List<String> header = List.of(rows.get(0).split(","));
        int column = header.indexOf("noise_multiplier");
        assertTrue(column >= 0, rows.get(0));
        return Double.parseDouble(rows.get(1).split(",")[column]);
    }
}
