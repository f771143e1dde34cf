package org.dpdl4j.cli.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dpdl4j.cli.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A decentralized run stopped by its budget twice and continued each time with a larger one ends exactly as a run
 * that went to the last budget at once: every file, so no statement is older than the model beside it. The budget
 * stops on the default accounting's bound (here the exact Gaussian curve of Decor's noise, which also calibrated it).
 */
class BudgetStopResumeTest {
    @TempDir
    Path tmp;

    private static CommandRun decor(String budget, String... more) {
        List<String> args = new ArrayList<>(List.of("train", "--algo", "decor", "--dataset", "synthetic-lsq", "--nodes", "16",
                "--topology", "ring", "--rounds", "400", "--epsilon", "5", "--clip", "1", "--seed", "3", "--checkpoint-every",
                "50", "--noise", "seeded", "--epsilon-budget", budget));
        args.addAll(List.of(more));
        return CommandRun.of(args.toArray(String[]::new));
    }

    @Test
    void twoBudgetStopsAndTwoResumesEndAsOneUninterruptedRun() throws Exception {
        Path resumed = tmp.resolve("resumed");
        Path straight = tmp.resolve("straight");
        CommandRun first = decor("3", "--out", resumed.toString());
        assertEquals(3, first.exitCode(), first.both());
        assertTrue(first.out().contains("164 x decor round"), first.out());
        CommandRun second = decor("4", "--resume", resumed.toString());
        assertEquals(3, second.exitCode(), second.both());
        assertTrue(second.out().contains("Resumed") && second.out().contains("272 x decor round"), second.out());
        CommandRun third = decor("4.5", "--resume", resumed.toString());
        assertEquals(3, third.exitCode(), third.both());
        CommandRun uninterrupted = decor("4.5", "--out", straight.toString());
        assertEquals(3, uninterrupted.exitCode(), uninterrupted.both());
        assertTrue(uninterrupted.out().contains("333 x decor round"), uninterrupted.out());

        SameRunFiles.assertSameRun(straight, resumed);
        String privacy = Files.readString(resumed.resolve("privacy.txt"));
        assertTrue(privacy.contains("333 x decor round") && privacy.contains("epsilon = 4.4943 (the gaussian accountant's bound)"), privacy);
    }
}
