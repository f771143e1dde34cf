package org.dpdl4j.experiments.campaign;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dpdl4j.attacks.observe.CentralDpSgdRun;
import org.dpdl4j.attacks.observe.RunWorkload;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A campaign interrupted after any journal line and resumed gives the records, blind guesses and reconstructions of
 * the uninterrupted campaign bit for bit (only the attacks' timings differ); a line cut off by the crash is dropped and
 * rerun; a journal of other settings or with a damaged line is refused with the fix.
 */
class CampaignJournalTest {

    private static RunWorkload workload;
    private static AttackCampaign.Plan plan;
    private static CampaignResult uninterrupted;
    private static List<String> lines;

    @BeforeAll
    static void runOnce(@TempDir Path tmp) throws Exception {
        workload = SmallWorkloads.mnist(600, 100, new int[] {0, 1, 2}, 2);
        plan = new AttackCampaign.Plan(List.of(new CentralDpSgdRun(false), new CentralDpSgdRun(true)),
                List.of(1.0, 8.0), List.of(CampaignAttack.analyticLeastSquares()), 3);
        Path file = tmp.resolve(CampaignJournal.FILE_NAME);
        try (CampaignJournal journal = CampaignJournal.create(file, AttackCampaign.describe(workload, plan))) {
            uninterrupted = AttackCampaign.run(workload, plan, line -> { }, journal);
        }
        lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    }

    @Test
    void theJournalHoldsThePlanThenEveryRunAndRowInOrder() {
        // plan; sgd: run, row; dp-sgd at 1: run, row; dp-sgd at 8: run, row
        assertEquals(7, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).startsWith("{\"type\":\"plan\""), lines.get(0));
        for (int i = 1; i < lines.size(); i++) {
            assertTrue(lines.get(i).startsWith(i % 2 == 1 ? "{\"type\":\"run\"" : "{\"type\":\"row\""), lines.get(i));
        }
    }

    @Test
    void resumingAfterAnyLineGivesTheUninterruptedRecords(@TempDir Path tmp) throws Exception {
        // kept = 0: the crash cut the plan line itself, before any row ran
        for (int kept = 0; kept < lines.size(); kept++) {
            Path file = tmp.resolve("journal-" + kept + ".jsonl");
            // The crash cut the next line off half way.
            String next = lines.get(kept);
            Files.writeString(file, (kept == 0 ? "" : String.join("\n", lines.subList(0, kept)) + "\n")
                    + next.substring(0, next.length() / 2), StandardCharsets.UTF_8);
            List<String> log = new ArrayList<>();
            CampaignResult resumed;
            try (CampaignJournal journal = CampaignJournal.resume(file, AttackCampaign.describe(workload, plan))) {
                resumed = AttackCampaign.run(workload, plan, log::add, journal);
            }
            assertSame(uninterrupted, resumed, "resumed after line " + kept);
            assertEquals(lines.stream().map(CampaignJournalTest::withoutTimes).toList(),
                    Files.readAllLines(file).stream().map(CampaignJournalTest::withoutTimes).toList(),
                    "the journal ends as the uninterrupted one, the cut-off line replaced");
            boolean sgdDone = kept >= 3;
            assertEquals(sgdDone, log.contains("sgd at epsilon inf: every row is in the journal"),
                    "a run whose rows are all journaled is not trained again: " + log);
            assertEquals(!sgdDone, log.stream().anyMatch(l -> l.startsWith("sgd at epsilon inf: 3 cases")), log.toString());
        }
    }

    @Test
    void aJournalOfOtherSettingsOrWithADamagedLineIsRefused(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve(CampaignJournal.FILE_NAME);
        Files.write(file, lines, StandardCharsets.UTF_8);
        AttackCampaign.Plan other = new AttackCampaign.Plan(plan.protocols(), List.of(2.0, 8.0), plan.attacks(), 3);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> CampaignJournal.resume(file, AttackCampaign.describe(workload, other)));
        assertTrue(e.getMessage().contains("other settings") && e.getMessage().contains("epsilons=[2.0, 8.0]"),
                e.getMessage());

        List<String> damaged = new ArrayList<>(lines);
        damaged.set(2, damaged.get(2).replace("\"psnr\":\"", "\"psnr\":\"x"));
        Files.write(file, damaged, StandardCharsets.UTF_8);
        e = assertThrows(IllegalStateException.class,
                () -> CampaignJournal.resume(file, AttackCampaign.describe(workload, plan)));
        assertTrue(e.getMessage().contains("line 3 is damaged") && e.getMessage().contains("'psnr' is not a number"),
                e.getMessage());

        e = assertThrows(IllegalStateException.class,
                () -> CampaignJournal.resume(tmp.resolve("absent.jsonl"), AttackCampaign.describe(workload, plan)));
        assertTrue(e.getMessage().contains("nothing to resume"), e.getMessage());
        e = assertThrows(IllegalStateException.class,
                () -> CampaignJournal.create(file, AttackCampaign.describe(workload, plan)));
        assertTrue(e.getMessage().contains("--resume"), e.getMessage());
    }

    @Test
    void deleteRemovesTheJournal(@TempDir Path tmp) {
        Path file = tmp.resolve(CampaignJournal.FILE_NAME);
        CampaignJournal journal = CampaignJournal.create(file, "plan");
        assertTrue(Files.isRegularFile(file));
        journal.delete();
        assertFalse(Files.exists(file));
    }

    private static void assertSame(CampaignResult expected, CampaignResult actual, String where) {
        assertEquals(expected.runs().size(), actual.runs().size(), where);
        for (int i = 0; i < expected.runs().size(); i++) {
            RunInfo a = expected.runs().get(i);
            RunInfo b = actual.runs().get(i);
            assertEquals(List.of(a.algorithm(), a.epsilon(), a.calibration(), a.cases()),
                    List.of(b.algorithm(), b.epsilon(), b.calibration(), b.cases()), where);
        }
        assertRecords(expected.records(), actual.records(), where);
        assertRecords(expected.noiseOnly(), actual.noiseOnly(), where + " (blind guesses)");
        assertEquals(expected.threshold().bars(), actual.threshold().bars(), where);
    }

    private static void assertRecords(List<AttackRecord> expected, List<AttackRecord> actual, String where) {
        assertEquals(expected.size(), actual.size(), where);
        for (int i = 0; i < expected.size(); i++) {
            AttackRecord a = expected.get(i);
            AttackRecord b = actual.get(i);
            assertEquals(a.key(), b.key(), where);
            assertEquals(List.of(a.target(), a.party(), a.round(), a.modelAccuracy(), a.noiseStd(), a.noiseRatio(),
                    a.psnr(), a.ssim(), a.trueLabel(), a.recoveredLabel()), List.of(b.target(), b.party(), b.round(),
                    b.modelAccuracy(), b.noiseStd(), b.noiseRatio(), b.psnr(), b.ssim(), b.trueLabel(),
                    b.recoveredLabel()), where + ", record " + i);
            assertArrayEquals(a.pixels(), b.pixels(), where + ", record " + i);
        }
    }

    private static String withoutTimes(String line) {
        return line.replaceAll("\"(seconds|elapsed)\":\"[^\"]*\"", "\"$1\":\"t\"");
    }
}
