package org.dpdl4j.experiments.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDirectoryTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2024-01-02T03:04:05Z"), ZoneOffset.UTC);

    @TempDir
    Path work;

    @Test
    void defaultDirectoryIsRunsStampName() {
        RunDirectory run = RunDirectory.fresh("train-mnist", work, CLOCK);
        assertEquals(work.resolve("runs/20240102-030405-train-mnist"), run.path());
        assertTrue(Files.isDirectory(run.path()));
    }

    @Test
    void runsInTheSameSecondGetSuffixes() {
        Path first = RunDirectory.fresh("decor", work, CLOCK).path();
        Path second = RunDirectory.fresh("decor", work, CLOCK).path();
        Path third = RunDirectory.fresh("decor", work, CLOCK).path();
        assertEquals("20240102-030405-decor", first.getFileName().toString());
        assertEquals("20240102-030405-decor-2", second.getFileName().toString());
        assertEquals("20240102-030405-decor-3", third.getFileName().toString());
    }

    @Test
    void concurrentRunsNeverShareADirectory() throws Exception {
        int n = 8;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Callable<Path>> tasks = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                tasks.add(() -> RunDirectory.fresh("race", work, CLOCK).path());
            }
            Set<Path> paths = new HashSet<>();
            for (Future<Path> f : pool.invokeAll(tasks)) {
                paths.add(f.get());
            }
            assertEquals(n, paths.size());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void explicitOutIsUsedWhenNewOrEmptyAndRefusedWhenItHoldsARun() throws Exception {
        Path out = work.resolve("results/a");
        try (RunDirectory run = RunDirectory.claim(out, "dpdl4j attack dlg", "test", RunDirectory.Reuse.NOTHING)) {
            assertEquals(out, run.path());
            Files.writeString(out.resolve("config.json"), "{}");
        }
        Path empty = Files.createDirectories(work.resolve("empty"));
        try (RunDirectory run = RunDirectory.of(empty, "dpdl4j attack dlg", "x")) {
            assertEquals(empty, run.path());
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> RunDirectory.of(out, "dpdl4j attack dlg", "x"));
        assertTrue(e.getMessage().contains("already holds a run") && e.getMessage().contains("give another --out"), e.getMessage());
        assertEquals("{}", Files.readString(out.resolve("config.json")), "the earlier run is untouched");
        assertEquals(java.util.Optional.of("dpdl4j attack dlg"), DirectoryLock.recordedCommand(out),
                "a refused claim leaves the record of the command that wrote the directory");
    }

    @Test
    void aCommandContinuesOnlyInADirectoryItWroteItself() throws Exception {
        Path out = work.resolve("reproduction");
        try (RunDirectory run = RunDirectory.claim(out, "dpdl4j reproduce recal", "test", RunDirectory.Reuse.SAME_COMMAND)) {
            Files.writeString(run.file("results.csv"), "a\n1\n");
        }
        try (RunDirectory again = RunDirectory.claim(out, "dpdl4j reproduce recal", "test", RunDirectory.Reuse.SAME_COMMAND)) {
            assertEquals(out, again.path());
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> RunDirectory.claim(out, "dpdl4j reproduce personalized", "test", RunDirectory.Reuse.SAME_COMMAND));
        assertTrue(e.getMessage().contains("holds the output of 'dpdl4j reproduce recal'"), e.getMessage());
        assertEquals(java.util.Optional.of("dpdl4j reproduce recal"), DirectoryLock.recordedCommand(out));
    }

    @Test
    void aRunDirectoryIsReadableByItsOwnerAlone() throws Exception {
        Path out = work.resolve("private");
        try (RunDirectory run = RunDirectory.of(out, "dpdl4j train", "x")) {
            run.writeText("summary.md", "x\n");
            AtomicFiles.replace(run.file("model.bin"), f -> Files.write(f, new byte[] {1, 2}));
            try (MetricsCsv csv = MetricsCsv.create(run.file("metrics.csv"), java.util.List.of("step"))) {
                csv.append(1);
            }
        }
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));
        for (String name : new String[] {"summary.md", "model.bin", "metrics.csv", DirectoryLock.FILE_NAME}) {
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(out.resolve(name))), name);
        }
    }

    @Test
    void aRefusedClaimLeavesTheDirectoryPermissionsAsTheyWere() throws Exception {
        Path mine = Files.createDirectories(work.resolve("users-own"));
        Files.writeString(mine.resolve("notes.txt"), "mine\n");
        Files.setPosixFilePermissions(mine, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThrows(IllegalStateException.class, () -> RunDirectory.of(mine, "dpdl4j train", "x"));
        assertEquals("rwxr-xr-x", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(mine)));
    }

    @Test
    void explicitOutThatIsAFileIsRefused() throws Exception {
        Path file = Files.writeString(work.resolve("taken"), "x");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> RunDirectory.of(file, "dpdl4j train", "x"));
        assertTrue(e.getMessage().contains("is a file"), e.getMessage());
    }

    @Test
    void aRunThatWritesNothingLeavesTheDirectoryAsItFoundIt() throws Exception {
        // created by the run: removed
        RunDirectory.of(work.resolve("new"), "dpdl4j train", "x").close();
        assertFalse(Files.exists(work.resolve("new")));
        RunDirectory.fresh("failed", work, CLOCK).close();
        assertFalse(Files.exists(work.resolve("runs/20240102-030405-failed")));
        // made by the user: kept, without the lock file
        Path empty = Files.createDirectories(work.resolve("empty"));
        RunDirectory.of(empty, "dpdl4j train", "x").close();
        assertTrue(Files.isDirectory(empty));
        assertFalse(Files.exists(empty.resolve(DirectoryLock.FILE_NAME)));
        // a user's directory with other files, refused: no lock file added
        Path users = Files.createDirectories(work.resolve("users"));
        Files.writeString(users.resolve("notes.txt"), "mine");
        assertThrows(IllegalStateException.class, () -> RunDirectory.of(users, "dpdl4j train", "x"));
        try (var entries = Files.list(users)) {
            assertEquals(List.of("notes.txt"), entries.map(p -> p.getFileName().toString()).toList());
        }
    }

    @Test
    void aRunThatWroteKeepsItsFilesAndItsRecordAndAnIdleResumeChangesNeither() throws Exception {
        Path out = work.resolve("done");
        try (RunDirectory run = RunDirectory.claim(out, "dpdl4j reproduce recal", "test", RunDirectory.Reuse.SAME_COMMAND)) {
            run.writeText("results.csv", "a\n");
        }
        try (RunDirectory again = RunDirectory.claim(out, "dpdl4j reproduce recal", "test", RunDirectory.Reuse.SAME_COMMAND)) {
            assertEquals(out, again.path());   // adds nothing
        }
        assertTrue(Files.exists(out.resolve("results.csv")));
        assertEquals(java.util.Optional.of("dpdl4j reproduce recal"), DirectoryLock.recordedCommand(out));
        // a directory holding only the record of an earlier command keeps that record when a claim writes nothing
        Path recorded = work.resolve("recorded");
        try (RunDirectory run = RunDirectory.claim(recorded, "dpdl4j reproduce recal", "test", RunDirectory.Reuse.SAME_COMMAND)) {
            run.writeText("results.csv", "a\n");
        }
        Files.delete(recorded.resolve("results.csv"));
        RunDirectory.claim(recorded, "dpdl4j reproduce recal", "test", RunDirectory.Reuse.SAME_COMMAND).close();
        assertEquals(java.util.Optional.of("dpdl4j reproduce recal"), DirectoryLock.recordedCommand(recorded));
    }

    @Test
    void unsafeNamesAreRefused() {
        for (String name : new String[] {"", "a/b", "../up", "-dash", "sp ace"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RunDirectory.fresh(name, work, CLOCK), name);
            assertTrue(e.getMessage().contains("run name"), e.getMessage());
        }
        RunDirectory run = RunDirectory.fresh("ok", work, CLOCK);
        assertThrows(IllegalArgumentException.class, () -> run.file("../escape.txt"));
        assertThrows(IllegalArgumentException.class, () -> run.file("sub/file.txt"));
        assertEquals(run.path().resolve("metrics.csv"), run.file("metrics.csv"));
    }

    /** A configuration as the command would hold it. */
    record TrainConfig(String model, int epochs, double learningRate, Optional<Double> epsilon,
                       Optional<String> unset, OptionalDouble delta, Path data, Duration budget,
                       Map<String, Object> extra) {
    }

    @Test
    void writesConfigAndProvenanceAsPrettyJson() throws Exception {
        RunDirectory run = RunDirectory.fresh("cfg", work, CLOCK);
        Map<String, Long> seeds = new LinkedHashMap<>();
        seeds.put("master", 42L);
        seeds.put("partition", 7L);
        Provenance provenance = new Provenance("0.1.0", "17", "vendor", "Linux", 2, "CpuBackend",
                OffsetDateTime.parse("2024-01-02T03:04:05Z"), seeds, List.of("train", "--epochs", "3"));
        TrainConfig config = new TrainConfig("mlp", 3, 0.1, Optional.of(1.5), Optional.empty(), OptionalDouble.of(1e-5),
                Path.of("data/mnist"),
                Duration.ofMinutes(5), Map.of("note", "x,y"));
        Path file = run.writeConfig(config, provenance);
        assertEquals(run.path().resolve("config.json"), file);
        String text = Files.readString(file);
        assertTrue(text.contains("\n  \"provenance\" : {"), "pretty-printed:\n" + text);
        JsonNode root = new ObjectMapper().readTree(text);
        assertEquals("mlp", root.at("/config/model").asText());
        assertEquals(0.1, root.at("/config/learningRate").asDouble());
        assertEquals(1.5, root.at("/config/epsilon").asDouble());
        assertTrue(root.at("/config/unset").isNull());
        assertEquals(1e-5, root.at("/config/delta").asDouble());
        assertEquals(Path.of("data/mnist").toString(), root.at("/config/data").asText());
        assertEquals("PT5M", root.at("/config/budget").asText());
        assertEquals("2024-01-02T03:04:05Z", root.at("/provenance/startTime").asText());
        assertEquals(List.of("master", "partition"), iteratorToList(root.at("/provenance/seeds").fieldNames()));
        assertEquals(7, root.at("/provenance/seeds/partition").asLong());
        assertEquals("--epochs", root.at("/provenance/arguments/1").asText());
        List<Path> leftovers;
        try (var files = Files.list(run.path())) {
            leftovers = files.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
        }
        assertTrue(leftovers.isEmpty(), "no temporary files left: " + leftovers);
    }

    private static List<String> iteratorToList(java.util.Iterator<String> names) {
        List<String> list = new ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }

    @Test
    void writeJsonReplacesAWholeFile() throws Exception {
        RunDirectory run = RunDirectory.fresh("json", work, CLOCK);
        run.writeJson("results.json", Map.of("accuracy", 0.5));
        run.writeJson("results.json", Map.of("accuracy", 0.75));
        assertEquals(0.75, new ObjectMapper().readTree(run.file("results.json").toFile()).get("accuracy").asDouble());
        assertFalse(Files.exists(run.file("config.json")));
    }

    @Test
    void capturedProvenanceNamesTheRuntime() {
        Provenance p = Provenance.capture(Map.of("master", 1L), List.of("train"));
        assertEquals(System.getProperty("java.version"), p.javaVersion());
        assertTrue(p.nd4jBackend().contains("Backend"), p.nd4jBackend());
        assertTrue(p.processors() >= 1);
        assertFalse(p.dpdl4jVersion().isBlank());
        assertThrows(IllegalArgumentException.class, () -> new Provenance("v", "17", "x", "os", 1, "b",
                OffsetDateTime.now(), Map.of("", 1L), List.of()));
    }

    @Test
    void listingNamesEveryFileWithNumberedOnesTogetherAndTheLockLast() throws Exception {
        try (RunDirectory run = RunDirectory.claim(work.resolve("listed"), "dpdl4j train", "test", RunDirectory.Reuse.NOTHING)) {
            run.writeText("summary.md", "# run\n");
            run.writeText("config.json", "{}\n");
            for (int i = 0; i < 12; i++) {
                run.writeText("model-node-" + i + ".zip", "x");
            }
            run.writeText("part-1.csv", "a");
            run.writeText("part-2.csv", "b");
            Files.createDirectories(run.path().resolve("sub"));
            assertEquals("config.json, model-node-<i>.zip (12 files), part-1.csv, part-2.csv, summary.md, .dpdl4j.lock (the"
                    + " directory's claim; it names the command that wrote it)", run.listing());
        }
    }

    @Test
    void aFolderIsInsideTheRunUnderItsClaimAndListsNoLock() throws Exception {
        try (RunDirectory run = RunDirectory.claim(work.resolve("with-folder"), "dpdl4j tune", "test", RunDirectory.Reuse.NOTHING)) {
            RunDirectory folder = run.folder("operator");
            folder.writeText("record.csv", "a\n");
            folder.close();   // holds no claim of its own
            assertEquals(run.path().resolve("operator"), folder.path());
            assertEquals("record.csv", folder.listing());
            assertEquals(".dpdl4j.lock (the directory's claim; it names the command that wrote it)", run.listing());
            assertThrows(IllegalStateException.class, () -> RunDirectory.claim(run.path(), "dpdl4j tune", "another",
                    RunDirectory.Reuse.SAME_COMMAND),
                    "the run is still claimed");
            assertThrows(IllegalArgumentException.class, () -> run.folder("../outside"));
        }
    }
}
