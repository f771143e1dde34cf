package org.dpdl4j.demo.dpgd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dpdl4j.cli.CommandRun;
import org.dpdl4j.experiments.report.CsvTable;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A protocol added from outside the library, with nothing but its package and one line in
 * {@code META-INF/services/org.dpdl4j.runtime.ProtocolProvider}: the registry lists it, {@code train} offers and
 * validates its options, trains it, stops it at its budget, resumes it, and every epsilon comes from its ledger.
 */
class DpGdProtocolTest {
    private static final String[] RUN = {"train", "--algo", "dp-gd", "--dataset", "synthetic-lsq", "--rounds", "40", "--lr",
            "0.5", "--clip", "1", "--noise-multiplier", "5", "--noise", "seeded", "--eval-every", "10"};

    private static String[] with(String... more) {
        String[] out = java.util.Arrays.copyOf(RUN, RUN.length + more.length);
        System.arraycopy(more, 0, out, RUN.length, more.length);
        return out;
    }

    @Test
    void aRegisteredProtocolIsListedTrainedAndAccountedByTheCommandLine(@TempDir Path tmp) throws Exception {
        assertTrue(ProtocolRegistry.standard().contains("dp-gd"));
        CommandRun help = CommandRun.of("train", "--help");
        assertTrue(help.out().contains("dp-gd") && help.out().contains("DP gradient descent on cyclic batches"),
                help.out());
        CommandRun foreign = CommandRun.of(with("--epochs", "3"));
        assertEquals(2, foreign.exitCode());
        assertTrue(foreign.err().contains("--epochs has no effect with --algo dp-gd"), foreign.err());

        Path full = tmp.resolve("full");
        CommandRun r = CommandRun.of(with("--out", full.toString()));
        assertEquals(0, r.exitCode(), r.both());
        CsvTable metrics = CsvTable.read(full.resolve("metrics.csv"));
        double[] eps = metrics.doubles("epsilon");
        double[] gap = metrics.doubles("optimality_gap");
        assertEquals(4, eps.length);
        // Each step is one Gaussian mechanism of multiplier z = 5 under add-or-remove-one: after T steps the exact
        // Gaussian curve with mu = sqrt(T) / z, the tightest valid bound, below zCDP's (rho = T / (2 z^2)).
        for (int k = 0; k < eps.length; k++) {
            double steps = 10.0 * (k + 1);
            double expected = GaussianPrivacyCurve.epsilon(Math.sqrt(steps) / 5.0, 1e-5);
            assertEquals(expected, eps[k], 1e-9 * expected, "row " + k);
            assertTrue(eps[k] < ZCdp.epsilon(steps / (2 * 25.0), 1e-5), "row " + k);
        }
        assertTrue(gap[3] < gap[0], "it trains: optimality gap " + gap[0] + " -> " + gap[3]);
        String privacy = Files.readString(full.resolve("privacy.txt"));
        assertTrue(privacy.contains("40 x dp-gd step") && privacy.contains("seeded"), privacy);
        assertTrue(Files.isRegularFile(full.resolve("model.zip")) && Files.isRegularFile(full.resolve("checkpoint.bin")));

        // The budget stop: the step that would pass epsilon = eps[1] (after 20 steps) is not taken.
        Path stopped = tmp.resolve("stopped");
        CommandRun budget = CommandRun.of(with("--epsilon-budget", Double.toString(eps[1] * (1 + 1e-9)), "--out",
                stopped.toString()));
        assertEquals(3, budget.exitCode(), budget.both());
        assertTrue(budget.out().contains("budget"), budget.out());
        CsvTable stoppedMetrics = CsvTable.read(stopped.resolve("metrics.csv"));
        assertEquals(eps[1], stoppedMetrics.doubles("epsilon")[stoppedMetrics.size() - 1], 1e-12 * eps[1]);

        // Resumed with a larger budget (which changes no mechanism), it ends exactly where the uninterrupted run does.
        Path resumed = tmp.resolve("resumed");
        CommandRun more = CommandRun.of(with("--epsilon-budget", "100", "--resume", stopped.resolve("checkpoint.bin").toString(),
                "--out", resumed.toString()));
        assertEquals(0, more.exitCode(), more.both());
        CsvTable after = CsvTable.read(resumed.resolve("metrics.csv"));
        assertEquals(metrics.column("optimality_gap").get(3), after.column("optimality_gap").get(after.size() - 1),
                "bit for bit the uninterrupted run's model");
        assertEquals(metrics.column("epsilon").get(3), after.column("epsilon").get(after.size() - 1));
    }

    @Test
    void itDeclaresThatItSplitsIntoBlocksAndRunsOnSparkAsInOneProcess(@TempDir Path tmp) throws Exception {
        assertTrue(org.dpdl4j.runtime.engine.RunEngines.splitting(ProtocolRegistry.standard()).contains("dp-gd"));
        Path local = tmp.resolve("local");
        Path spark = tmp.resolve("spark");
        CommandRun a = CommandRun.of(with("--out", local.toString()));
        assertEquals(0, a.exitCode(), a.both());
        CommandRun b = CommandRun.of(with("--out", spark.toString(), "--engine", "spark", "--master", "local[2]", "--blocks", "3"));
        assertEquals(0, b.exitCode(), b.both());
        assertTrue(Files.readString(spark.resolve("config.json")).contains("\"engine\" : \"spark local[2]"));
        CsvTable x = CsvTable.read(local.resolve("metrics.csv"));
        CsvTable y = CsvTable.read(spark.resolve("metrics.csv"));
        // The same ledger and the same noise draws; the blocks' sums round differently from one sum over every row.
        assertEquals(x.column("epsilon"), y.column("epsilon"));
        double[] gx = x.doubles("optimality_gap");
        double[] gy = y.doubles("optimality_gap");
        for (int k = 0; k < gx.length; k++) {
            assertEquals(gx[k], gy[k], 1e-4 * Math.max(1, Math.abs(gx[k])), "row " + k);
        }
        assertEquals(Files.readString(local.resolve("privacy.txt")), Files.readString(spark.resolve("privacy.txt")));
    }

    @Test
    void itCalibratesToATargetEpsilonAndPricesARunFromItsSettingsAlone(@TempDir Path tmp) throws Exception {
        String[] run = {"train", "--algo", "dp-gd", "--dataset", "synthetic-lsq", "--rounds", "40", "--lr", "0.5", "--clip", "1",
                "--epsilon", "3", "--batch-size", "50", "--noise", "seeded", "--eval-every", "20", "--out", tmp.resolve("e").toString()};
        CommandRun r = CommandRun.of(run);
        assertEquals(0, r.exitCode(), r.both());
        double[] eps = CsvTable.read(tmp.resolve("e").resolve("metrics.csv")).doubles("epsilon");
        double last = eps[eps.length - 1];
        assertTrue(last <= 3 && last > 3 * (1 - 1e-6), "the planned steps reach the target from below: " + last);
    }

    @Test
    void theAttackReportAttacksItThroughItsDeclaredObserver(@TempDir Path tmp) throws Exception {
        assertTrue(org.dpdl4j.experiments.campaign.CampaignProtocols.names().contains("dp-gd"));
        Path out = tmp.resolve("report");
        CommandRun r = CommandRun.of("attack", "report", "--images", "2", "--protocols", "dp-gd", "--epsilons", "8",
                "--attack-round", "0", "--idlg-iterations", "3", "--baselines", "2", "--data-dir",
                CommandRun.realDataDir("the attack report on dp-gd"), "--out", out.toString());
        assertEquals(0, r.exitCode(), r.both());
        assertTrue(r.out().contains("dp-gd at epsilon 8: 2 cases"), r.out());
        assertTrue(r.out().contains("dp-gd / gradient at epsilon 8"), r.out());
        java.util.List<String> rows = Files.readAllLines(out.resolve("results.csv"));
        assertTrue(rows.size() > 1 && rows.stream().skip(1).allMatch(l -> l.contains("dp-gd") && l.contains("gradient")),
                String.join("\n", rows));
    }

    @Test
    void privateTuningPricesItsCandidatesFromTheirSettings(@TempDir Path tmp) throws Exception {
        Path space = tmp.resolve("space.json");
        Files.writeString(space, "{\"lr\": {\"log\": [0.1, 1]}, \"batch-size\": {\"log-integer\": [20, 200]}}");
        Path out = tmp.resolve("t");
        CommandRun r = CommandRun.of("tune", "--algo", "dp-gd", "--dataset", "a9a", "--data-dir",
                CommandRun.realDataDir("tuning dp-gd on a9a"), "--space", space.toString(),
                "--rounds", "20", "--clip", "1", "--pool", "4", "--candidates", "geometric:2", "--epsilon-total", "4",
                "--noise", "seeded", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.both());
        assertTrue(r.out().contains("Tuning dp-gd: pool of 4 configurations"), r.out());
        String privacy = Files.readString(out.resolve("privacy.txt"));
        double eps = Double.parseDouble(privacy.replaceAll("(?s).*tuning included: epsilon = ([0-9.]+).*", "$1"));
        assertTrue(eps <= 4.0, privacy);
        assertTrue(Files.readString(out.resolve("best.json")).contains("dpdl4j train --algo dp-gd"));
    }
}
