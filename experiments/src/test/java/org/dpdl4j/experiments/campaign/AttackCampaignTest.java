package org.dpdl4j.experiments.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dpdl4j.attacks.observe.CentralDpSgdRun;
import org.dpdl4j.attacks.observe.RunWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spec 8.6 oracle 5 in small form: on real MNIST images at batch size 1, the least-squares inversion recovers every
 * image from plain SGD's gradient and fails (by the derived threshold) on every image from DP-SGD's release at its
 * calibrated noise for epsilon 8; the report files are written from the result.
 */
class AttackCampaignTest {

    @Test
    void nonPrivateGradientGivesTheImagesBackAndDpSgdAtEpsilonEightHidesThem(@TempDir Path tmp) throws Exception {
        RunWorkload workload = SmallWorkloads.mnist(1000, 200, new int[] {0, 1, 2}, 3);
        AttackCampaign.Plan plan = new AttackCampaign.Plan(List.of(new CentralDpSgdRun(false),
                new CentralDpSgdRun(true)), List.of(8.0),
                List.of(CampaignAttack.analyticLeastSquares()), 20);
        List<String> log = new ArrayList<>();
        CampaignResult result = AttackCampaign.run(workload, plan, log::add);

        assertEquals(2, result.runs().size());
        assertEquals(6, result.records().size());
        assertEquals(20, result.noiseOnly().size(), "20 pure-noise imitations of the private row's 3 releases");
        assertTrue(log.stream().anyMatch(l -> l.startsWith("dp-sgd at epsilon 8")), String.join("\n", log));

        FailureThreshold threshold = result.threshold();
        assertEquals(21, threshold.blindGuesses());
        for (FailureThreshold.Bar bar : threshold.bars().values()) {
            assertTrue(bar.psnr() > 5 && bar.psnr() < 20, "a blind guess lies far below 30 dB: " + bar);
        }

        for (RowSummary row : result.summaries()) {
            if (row.key().algorithm().equals("sgd")) {
                assertEquals(1.0, row.recovered(), 1e-12, "plain SGD's gradient gives every image back: " + row);
                assertEquals(0.0, row.failed(), 1e-12);
                assertEquals(1.0, row.labelAccuracy(), 1e-12);
                assertEquals(0.0, row.noiseRatio(), 1e-12);
                assertTrue(row.medianPsnr() > 40, row.toString());
            } else {
                assertEquals("dp-sgd", row.key().algorithm());
                assertEquals(8.0, row.key().epsilon());
                assertEquals(0.0, row.recovered(), 1e-12, row.toString());
                assertEquals(1.0, row.failed(), 1e-12, "DP-SGD at its calibrated noise is blind: " + row);
                assertTrue(row.noiseRatio() > 10, "batch size 1: the noise dwarfs one gradient: " + row);
            }
            assertEquals("3-5", row.rounds(), "target j is drawn at step 3 + j");
        }
        for (Verdict v : result.verdicts()) {
            if (v.algorithm().equals("dp-sgd")) {
                assertTrue(v.failsOnNinetyPercent(), v.toString());
            } else {
                assertEquals(1.0, v.recovered(), 1e-12);
            }
        }

        CampaignReport report = new CampaignReport(result, workload, plan, "dpdl4j attack report --images 3");
        List<Path> files = report.write(tmp);
        for (String name : List.of("report.md", "results.csv", "images.csv", "baselines.csv", "grid-analytic-ls.png")) {
            assertTrue(files.contains(tmp.resolve(name)), name);
            assertTrue(Files.size(tmp.resolve(name)) > 0, name);
        }
        String md = Files.readString(tmp.resolve("report.md"));
        assertTrue(md.contains("| dp-sgd | gradient | 8 | 100% |"), md);
        assertTrue(md.contains("priced by the `tightest` accountant (the smallest valid bound"), "names the accounting: " + md);
        assertTrue(md.contains("**yes**"), md);
        assertFalse(md.contains("**NO**"), md);
        assertTrue(md.contains("Every private variant at every epsilon tried (8) hides at least 90%"), md);
        List<String> csv = Files.readAllLines(tmp.resolve("results.csv"));
        assertEquals(3, csv.size(), "header and two rows");
        assertEquals(1 + 6, Files.readAllLines(tmp.resolve("images.csv")).size());
    }

    @Test
    void planRefusesNonPrivateEpsilonsAndEmptyChoices() {
        List<CampaignAttack> attacks = List.of(CampaignAttack.analyticLeastSquares());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new AttackCampaign.Plan(
                List.of(new CentralDpSgdRun(true)), List.of(Double.POSITIVE_INFINITY), attacks, 1));
        assertTrue(e.getMessage().contains("positive and finite"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new AttackCampaign.Plan(List.of(), List.of(8.0),
                attacks, 1));
        assertTrue(e.getMessage().contains("at least one protocol"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CampaignProtocols.named(List.of("decorr")));
        assertTrue(e.getMessage().contains("decorr") && e.getMessage().contains("decor"), e.getMessage());
        CampaignAttack limited = attacks.get(0).limitedTo(2);
        assertTrue(limited.covers(0) && limited.covers(1) && !limited.covers(2));
        assertTrue(attacks.get(0).covers(1_000_000), "unlimited by default");
        e = assertThrows(IllegalArgumentException.class, () -> attacks.get(0).limitedTo(0));
        assertTrue(e.getMessage().contains("at least 1 image"), e.getMessage());
        assertEquals(List.of("dp-sgd", "decor"), CampaignProtocols.named(List.of("decor", "dp-sgd")).stream()
                .map(p -> p.algorithm()).toList());
    }
}
