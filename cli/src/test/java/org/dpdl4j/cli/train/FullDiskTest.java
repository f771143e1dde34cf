package org.dpdl4j.cli.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.dpdl4j.cli.CommandRun;
import org.dpdl4j.cli.SmallDisk;
import org.dpdl4j.runtime.RunCheckpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk that fills up at each phase of a run's ending (its checkpoint, its statements, its models) loses nothing:
 * the error names the file, no statement on disk spent less than a model beside it, and the same command with
 * {@code --resume} writes every output again, to the files an uninterrupted run writes, at the same epsilon. When the
 * final checkpoint itself cannot be written, the run continues from its last periodic checkpoint.
 */
class FullDiskTest {
    /** The files of a run's ending, in the order it writes them. */
    private static final List<String> PHASES = List.of(RunCheckpoint.FILE_NAME, "privacy.txt", "summary.md", "training.png",
            "model.zip", "model-node-0.zip", "nodes.csv");
    /** Present while the ending is written: the claim, the configuration and the metrics. */
    private static final List<String> BEFORE_THE_END = List.of(".dpdl4j.lock", "config.json", "metrics.csv");

    @TempDir
    Path tmp;

    /**
     * The run: with a periodic checkpoint only where the final one is to fail (replacing a checkpoint needs room for both
     * for a moment, more than the statements after it need, so they are tested on a run that saves only at its end).
     */
    private static CommandRun decor(Path dir, boolean resume, boolean periodicCheckpoint) {
        List<String> args = new ArrayList<>(List.of("train", "--algo", "decor", "--dataset", "synthetic-lsq", "--rounds", "100",
                "--eval-every", "1", "--checkpoint-every", periodicCheckpoint ? "55" : "0", "--epsilon", "5", "--clip", "1", "--seed", "4", "--noise",
                "seeded", "--save-node-models", resume ? "--resume" : "--out", dir.toString()));
        return CommandRun.of(args.toArray(String[]::new));
    }

    @Test
    void aFullDiskAtEachPhaseOfTheEndingLosesNothingAndResumeWritesTheOutputsAgain() throws Exception {
        Optional<String> why = SmallDisk.unavailable();
        assumeTrue(why.isEmpty(), () -> "needs a small disk of its own: " + why.orElse(""));
        Path reference = tmp.resolve("reference");
        CommandRun uninterrupted = decor(reference, false, false);
        assertEquals(0, uninterrupted.exitCode(), uninterrupted.both());

        try (SmallDisk disk = SmallDisk.mount(tmp.resolve("disk"), 16L << 20)) {
            long block = disk.blockSize();
            for (String phase : PHASES) {
                Path run = disk.root().resolve("run-" + PHASES.indexOf(phase));
                disk.leaveFree(blocksBefore(reference, phase, block) * block + (blocks(reference.resolve(phase), block) - 1) * block);
                boolean periodic = phase.equals(RunCheckpoint.FILE_NAME);
                CommandRun full = decor(run, false, periodic);
                assertEquals(1, full.exitCode(), phase + ": " + full.both());
                assertTrue(full.err().contains("No space left on device") && full.err().contains(phase.equals(RunCheckpoint.FILE_NAME)
                        ? "could not write checkpoint" : "cannot write"), phase + ": " + full.err());
                assertTrue(full.err().contains(run.resolve(phase).toString()) || full.err().contains(run.resolve(phase).getFileName()
                        + ": "), phase + ": the message names the file: " + full.err());
                assertTrue(full.err().contains("--resume " + run), phase + ": the message says how to get the outputs: " + full.err());
                assertHonest(run, reference, phase);

                disk.freeAll();
                CommandRun resumed = decor(run, true, periodic);
                assertEquals(0, resumed.exitCode(), phase + ": " + resumed.both());
                assertTrue(resumed.out().contains(phase.equals(RunCheckpoint.FILE_NAME) ? "Resumed" : "without training"),
                        phase + ": " + resumed.out());
                SameRunFiles.assertSameRun(reference, run);
                delete(run);
            }
        }
    }

    /**
     * What a failed ending leaves: no model without the statement that describes it, and no statement but the right
     * one; when the checkpoint failed, no output at all.
     */
    private static void assertHonest(Path run, Path reference, String phase) throws IOException {
        int failed = PHASES.indexOf(phase);
        for (String name : PHASES) {
            boolean written = PHASES.indexOf(name) < failed;
            if (!name.equals(RunCheckpoint.FILE_NAME)) {
                assertEquals(written, Files.exists(run.resolve(name)), phase + " failed, so " + name
                        + (written ? " is written" : " is not"));
            }
            if (written && name.equals("privacy.txt")) {
                assertArrayEquals(Files.readAllBytes(reference.resolve(name)), Files.readAllBytes(run.resolve(name)), name);
            }
        }
        assertFalse(Files.exists(run.resolve("model.zip")) && !Files.exists(run.resolve("privacy.txt")),
                "a model on disk is described by its statement");
        try (Stream<Path> files = Files.list(run)) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")
                    || p.getFileName().toString().contains(".tmp-")), phase + ": no temporary file is left");
        }
    }

    /** Blocks taken, when the ending's {@code phase} is written, by the files already there (as the reference has them). */
    private static long blocksBefore(Path reference, String phase, long block) throws IOException {
        long n = 0;
        for (String name : BEFORE_THE_END) {
            n += Math.max(1, blocks(reference.resolve(name), block));   // the lock file holds its owner while it is held
        }
        n += blocks(reference.resolve(RunCheckpoint.FILE_NAME), block);   // the periodic checkpoint, or the final one
        for (String name : PHASES.subList(1, Math.max(1, PHASES.indexOf(phase)))) {
            n += name.equals("model-node-0.zip") ? nodeModelBlocks(reference, block) : blocks(reference.resolve(name), block);
        }
        return n;
    }

    private static long nodeModelBlocks(Path reference, long block) throws IOException {
        long n = 0;
        try (Stream<Path> files = Files.list(reference)) {
            for (Path p : files.filter(f -> f.getFileName().toString().startsWith("model-node-")).toList()) {
                n += blocks(p, block);
            }
        }
        return n;
    }

    private static long blocks(Path file, long block) throws IOException {
        return (Files.size(file) + block - 1) / block;
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
