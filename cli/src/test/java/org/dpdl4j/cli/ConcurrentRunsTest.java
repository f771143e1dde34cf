package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.dpdl4j.experiments.report.CsvTable;
import org.dpdl4j.experiments.report.DirectoryLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two runs at once into the same place: a second {@code train} into a claimed {@code --out} refuses and writes
 * nothing; two identical {@code reproduce} commands leave no torn or duplicate row; a row a crash cut off is dropped
 * and its run redone, never a refusal of the whole file.
 */
class ConcurrentRunsTest {
    @TempDir
    Path tmp;

    @Test
    void aSecondTrainIntoAClaimedDirectoryRefusesAndTouchesNothing() throws Exception {
        Path out = tmp.resolve("run");
        // Another process's claim, held while the train command tries the directory (held here, so no race decides
        // whether the claim is still there).
        try (DirectoryLock other = DirectoryLock.claim(out, "dpdl4j train", "another run")) {
            CommandRun second = CommandRun.of("train", "--algo", "dsgd", "--dataset", "synthetic-lsq", "--rounds", "50",
                    "--seed", "2", "--out", out.toString());
            assertEquals(1, second.exitCode(), second.both());
            assertTrue(second.err().contains("is in use by another dpdl4j process") && second.err().contains("another run"),
                    second.err());
            try (var files = Files.list(out)) {
                assertEquals(List.of(DirectoryLock.FILE_NAME), files.map(f -> f.getFileName().toString()).toList(),
                        "the refused run wrote nothing");
            }
        }
        CommandRun first = CommandRun.of("train", "--algo", "dsgd", "--dataset", "synthetic-lsq", "--rounds", "600",
                "--eval-every", "100", "--seed", "1", "--out", out.toString());
        assertEquals(0, first.exitCode(), first.both());
        JsonNode settings = new ObjectMapper().readTree(out.resolve("config.json").toFile()).path("config").path("settings");
        assertEquals("1", settings.path("seed").asText(), settings.toString());
        assertEquals(6, CsvTable.read(out.resolve("metrics.csv")).size(), "only the first run's rows");

        CommandRun third = CommandRun.of("train", "--algo", "dsgd", "--dataset", "synthetic-lsq", "--rounds", "50", "--out",
                out.toString());
        assertEquals(1, third.exitCode(), third.both());
        assertTrue(third.err().contains("already holds a run"), third.err());
        assertEquals(6, CsvTable.read(out.resolve("metrics.csv")).size(), "the finished run's files are untouched");
    }

    private static CommandRun reproduce(Path out) {
        return CommandRun.of("reproduce", "decor", "--task", "synthetic", "--epsilons", "10", "--topologies", "ring", "--seeds",
                "2", "--tune-pairs", "1", "--rounds", "150", "--out", out.toString());
    }

    /**
     * Two identical reproductions started together: whether they overlap (the second is refused while the first holds
     * the directory) or happen to run one after the other (the second finds every run finished), the results file
     * holds each run once, as a whole row.
     */
    @Test
    void twoIdenticalReproductionsAtOnceLeaveNoTornOrDuplicateRowAndATornRowIsRedone() throws Exception {
        Path out = tmp.resolve("decor");
        CompletableFuture<CommandRun> a = CompletableFuture.supplyAsync(() -> reproduce(out));
        CompletableFuture<CommandRun> b = CompletableFuture.supplyAsync(() -> reproduce(out));
        int succeeded = 0;
        for (CommandRun r : List.of(a.get(5, TimeUnit.MINUTES), b.get(5, TimeUnit.MINUTES))) {
            if (r.exitCode() == 0) {
                succeeded++;
            } else {
                assertEquals(1, r.exitCode(), r.both());
                assertTrue(r.err().contains("is in use by another dpdl4j process"), r.err());
            }
        }
        assertTrue(succeeded >= 1, "one of the two ran the grid");
        Path results = out.resolve("results.csv");
        List<String> rows = assertWholeUniqueRows(results);
        assertEquals(2 * 3, rows.size() - 1, "CDP, Decor and LDP on 2 seeds, each once");

        // A crash in the middle of a row: the torn row is dropped and that run is redone; nothing else is lost.
        String text = Files.readString(results, StandardCharsets.UTF_8);
        String torn = text.substring(0, text.length() - 1 - rows.get(rows.size() - 1).length() / 2);
        Files.writeString(results, torn, StandardCharsets.UTF_8);
        CommandRun resumed = reproduce(out);
        assertEquals(0, resumed.exitCode(), resumed.both());
        assertTrue(resumed.out().contains("Resuming: 5 finished runs"), resumed.out());
        assertEquals(rows, assertWholeUniqueRows(results), "the redone run's row is the same (seeded) row");
    }

    /** The file's lines, checking that each ends with a line break, has the header's width and occurs once. */
    private static List<String> assertWholeUniqueRows(Path csv) throws Exception {
        String text = Files.readString(csv, StandardCharsets.UTF_8);
        assertTrue(text.endsWith("\n"), "the last row is complete");
        List<String> lines = List.of(text.split("\n"));
        int width = lines.get(0).split(",", -1).length;
        Set<String> keys = new HashSet<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.split(",", -1);
            assertEquals(width, fields.length, "a whole row: " + line);
            // epsilon, mode, algorithm, topology, seed: one run
            assertTrue(keys.add(String.join(",", List.of(fields).subList(0, 5))), "a duplicate row: " + line);
        }
        return lines;
    }
}
