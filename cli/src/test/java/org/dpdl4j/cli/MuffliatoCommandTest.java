package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code train --algo muffliato} on the synthetic least-squares task (no download). */
class MuffliatoCommandTest {

    private static CommandRun train(Path out, String... extra) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("train", "--algo", "muffliato", "--dataset",
                "synthetic-lsq", "--nodes", "16", "--topology", "regular:3", "--rounds", "60", "--clip", "1", "--noise", "seeded",
                "--out", out.toString()));
        args.addAll(java.util.List.of(extra));
        return CommandRun.of(args.toArray(String[]::new));
    }

    @Test
    void trainsWithALedgerAndStatesLocalAndPairwisePrivacy(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        CommandRun r = train(out, "--epsilon", "8", "--calibrate-to", "pairwise-mean", "--gossip-steps", "3");
        assertEquals(0, r.exitCode(), r.both());
        String privacy = Files.readString(out.resolve("privacy.txt"));
        assertTrue(privacy.contains("Muffliato-GD") && privacy.contains("local DP (the guarantee")
                && privacy.contains("pairwise network DP") && privacy.contains("median"), privacy);
        assertTrue(Files.readString(out.resolve("metrics.csv")).lines().count() > 2);
        assertTrue(Files.exists(out.resolve("model.zip")));
    }

    @Test
    void settingsThatDoNotFitAreRefused(@TempDir Path dir) {
        CommandRun both = train(dir.resolve("a"), "--epsilon", "1", "--noise-multiplier", "2");
        assertTrue(both.exitCode() != 0 && both.err().contains("exactly one of --epsilon"), both.both());
        CommandRun target = train(dir.resolve("b"), "--noise-multiplier", "2", "--calibrate-to", "pairwise-max");
        assertTrue(target.exitCode() != 0 && target.err().contains("--calibrate-to chooses what --epsilon bounds"), target.both());
        CommandRun scheme = train(dir.resolve("c"), "--noise-multiplier", "2", "--gossip", "magic");
        assertTrue(scheme.exitCode() != 0 && scheme.err().contains("--gossip"), scheme.both());
        CommandRun users = train(dir.resolve("d"), "--noise-multiplier", "2", "--nodes", "12");
        assertTrue(users.exitCode() != 0 && users.err().contains("use --nodes 16"), users.both());
    }
}
