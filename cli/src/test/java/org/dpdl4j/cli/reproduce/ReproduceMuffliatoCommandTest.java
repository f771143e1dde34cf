package org.dpdl4j.cli.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dpdl4j.cli.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code reproduce muffliato} on a small graph: its files, and the orderings it checks. */
class ReproduceMuffliatoCommandTest {

    @Test
    void writesTheDistanceProfileTheUtilityComparisonAndTheChecks(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("muffliato");
        CommandRun r = CommandRun.of("reproduce", "muffliato", "--nodes", "60", "--gossip-steps", "3", "--seeds", "2", "--epsilons",
                "1,4", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.both());
        for (String f : List.of("distance.csv", "distance.png", "utility.csv", "utility.png", "checks.txt")) {
            assertTrue(Files.size(out.resolve(f)) > 0, f);
        }
        List<String> distance = Files.readAllLines(out.resolve("distance.csv"));
        String[] neighbours = distance.get(1).split(",");
        assertEquals("1", neighbours[0]);
        assertEquals(Double.parseDouble(neighbours[8]), Double.parseDouble(neighbours[3]), 1e-9,
                "neighbours receive the noisy value itself: local DP");
        assertEquals(1 + 2 * 4, Files.readAllLines(out.resolve("utility.csv")).size(), "4 rows per target");
        String checks = Files.readString(out.resolve("checks.txt"));
        // Chebyshev against plain is not asserted: at T = 3 its minimax polynomial leaves more of the noise than W^3 does.
        assertTrue(checks.contains("[x] at equal epsilon: central DP < Muffliato") && checks.contains("[x] neighbours see u's noisy value")
                && checks.contains("Chebyshev gossip beats"), checks);
    }
}
