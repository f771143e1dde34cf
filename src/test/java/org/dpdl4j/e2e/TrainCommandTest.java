package org.dpdl4j.e2e;

import org.dpdl4j.cli.CommandRun;

import org.dpdl4j.experiments.report.CsvTable;
import org.deeplearning4j.util.ModelSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** dpdl4j train from the command line to the run directory. */
class TrainCommandTest {

    private static void assertRunFiles(Path dir, long metricRows) throws Exception {
        for (String f : new String[]{"config.json", "metrics.csv", "summary.md", "training.png"}) {
            assertTrue(Files.isRegularFile(dir.resolve(f)), "missing " + f + " in " + dir);
        }
        BufferedImage png = ImageIO.read(dir.resolve("training.png").toFile());
        assertNotNull(png, "training.png is a readable PNG");
        assertEquals(metricRows, CsvTable.read(dir.resolve("metrics.csv")).size());
        assertTrue(Files.readString(dir.resolve("config.json")).contains("\"provenance\""));
    }

    @Test
    void centralLeastSquaresOnTheSyntheticTaskConverges(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        CommandRun r = CommandRun.of("train", "--dataset", "synthetic-lsq", "--epochs", "60", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.both());
        assertTrue(r.out().contains("optimality gap"), r.out());
        assertRunFiles(out, 60);
        double[] gap = CsvTable.read(out.resolve("metrics.csv")).doubles("optimality_gap");
        assertTrue(gap[59] < 1e-3 * gap[0], "gap falls: " + gap[0] + " -> " + gap[59]);
        assertTrue(Files.isRegularFile(out.resolve("model.zip")));
        // Every run file has the same permissions, whether appended to (metrics.csv) or replaced whole.
        try (var files = Files.list(out)) {
            var permissions = files.filter(f -> !f.getFileName().toString().startsWith(".")).map(f -> {
                try {
                    return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(f));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).distinct().toList();
            assertEquals(1, permissions.size(), "one set of permissions: " + permissions);
        }
    }

    @Test
    void decorOnTheSyntheticTaskStaysWithinItsBudget(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("decor");
        CommandRun r = CommandRun.of("train", "--algo", "decor", "--dataset", "synthetic-lsq", "--topology", "ring", "--nodes", "16",
                "--rounds", "200", "--eval-every", "50", "--epsilon", "10", "--clip", "1", "--noise", "seeded", "--save-node-models",
                "--out", out.toString());
        assertEquals(0, r.exitCode(), r.both());
        assertRunFiles(out, 4);
        // The average model and every node's, as DL4J models.
        assertEquals(10, ModelSerializer.restoreMultiLayerNetwork(out.resolve("model.zip").toFile()).numParams());
        for (int i = 0; i < 16; i++) {
            assertEquals(10, ModelSerializer.restoreMultiLayerNetwork(out.resolve("model-node-" + i + ".zip").toFile()).numParams());
        }
        assertEquals(16, CsvTable.read(out.resolve("nodes.csv")).size());
        double[] eps = CsvTable.read(out.resolve("metrics.csv")).doubles("epsilon");
        assertTrue(eps[3] <= 10.0 && eps[3] > 9.99, "calibrated to the target at the last round: " + eps[3]);
        assertTrue(eps[0] < eps[1] && eps[1] < eps[2], "epsilon grows with rounds");
        String privacy = Files.readString(out.resolve("privacy.txt"));
        assertTrue(privacy.contains("kappa") && privacy.contains("seeded (reproducible) source"), privacy);
        assertTrue(Files.isRegularFile(out.resolve("checkpoint.bin")));

        // Priced before it runs: the same ledger, the same epsilon, nothing built or written.
        Path dry = tmp.resolve("dry");
        CommandRun priced = CommandRun.of("train", "--algo", "decor", "--dataset", "synthetic-lsq", "--topology", "ring", "--nodes",
                "16", "--rounds", "200", "--epsilon", "10", "--clip", "1", "--noise", "seeded", "--dry-run", "--out", dry.toString());
        assertEquals(0, priced.exitCode(), priced.both());
        assertEquals(eps[3], priced.lastValue(1, "epsilon"), 1e-4, priced.out());
        assertTrue(priced.out().contains("200 x decor round"), priced.out());
        assertFalse(Files.exists(dry), "a dry run writes nothing");
    }

    @Test
    void aDryRunSaysWhatItCannotPrice() {
        CommandRun plain = CommandRun.of("train", "--algo", "dsgd", "--dataset", "synthetic-lsq", "--rounds", "10", "--dry-run");
        assertEquals(0, plain.exitCode(), plain.both());
        assertTrue(plain.out().contains("Privacy: none"), plain.out());
        // With secure noise the baton's path is secret until the run is built, and so is whom each iteration charges.
        CommandRun unknown = CommandRun.of("train", "--algo", "dp-recal", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds",
                "20", "--clip", "1", "--epsilon", "2", "--dry-run");
        assertEquals(2, unknown.exitCode(), unknown.both());
        assertTrue(unknown.err().contains("does not price a run before it runs"), unknown.err());
    }

    @Test
    void aResumedDecentralizedRunContinuesFromItsCheckpointAndComposesItsLedger(@TempDir Path tmp) throws Exception {
        String[] common = {"train", "--algo", "ldp", "--dataset", "synthetic-lsq", "--sigma-cdp", "5", "--clip", "1",
                "--noise", "seeded", "--eval-every", "40"};
        Path full = tmp.resolve("full");
        assertEquals(0, CommandRun.of(concat(common, "--rounds", "120", "--out", full.toString())).exitCode());
        Path first = tmp.resolve("first");
        assertEquals(0, CommandRun.of(concat(common, "--rounds", "80", "--out", first.toString())).exitCode());

        Path refusedDir = tmp.resolve("refused");
        CommandRun refused = CommandRun.of(concat(common, "--rounds", "120", "--resume", first.resolve("checkpoint.bin").toString(),
                "--out", refusedDir.toString()));
        assertEquals(1, refused.exitCode(), refused.both());
        assertTrue(refused.err().contains("--rounds: 80 -> 120") && refused.err().contains("--continue-with-new-settings"), refused.err());
        assertFalse(Files.exists(refusedDir), "a refused resume leaves no trace, not even the directory's claim");

        Path second = tmp.resolve("second");
        CommandRun resumed = CommandRun.of(concat(common, "--rounds", "120", "--resume", first.resolve("checkpoint.bin").toString(),
                "--continue-with-new-settings", "--out", second.toString()));
        assertEquals(0, resumed.exitCode(), resumed.both());
        assertTrue(resumed.out().contains("after 80 rounds"), resumed.out());
        CsvTable uninterrupted = CsvTable.read(full.resolve("metrics.csv"));
        CsvTable continued = CsvTable.read(second.resolve("metrics.csv"));
        assertEquals(uninterrupted.size(), continued.size(), "the resumed run directory holds the whole metrics history");
        assertEquals(uninterrupted.column("optimality_gap"), continued.column("optimality_gap"),
                "the resumed run ends exactly where the uninterrupted one does");
        double[] planned = uninterrupted.doubles("epsilon");
        double[] composed = continued.doubles("epsilon");
        for (int i = 0; i < planned.length; i++) {
            // Two ledger segments of 80 and 40 equal rounds: the same sum of rho as 120 rounds, added in another
            // order, so equal up to rounding.
            assertEquals(planned[i], composed[i], 1e-12 * planned[i], "row " + i + ": 80 + 40 rounds compose to 120 rounds");
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void optionsThatDoNotApplyAreRejected() {
        CommandRun r = CommandRun.of("train", "--dataset", "synthetic-lsq", "--topology", "torus");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--topology has no effect with --algo sgd"), r.err());
        assertTrue(!r.err().contains("Usage:"), "one message, not the whole usage: " + r.err());
        CommandRun unknown = CommandRun.of("train", "--dataset", "synthetic-lsq", "--algo", "gossip-magic");
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.err().contains("unknown --algo 'gossip-magic'") && unknown.err().contains("decor"), unknown.err());
    }

    @Test
    void privateRunsNeedAClipNormAndOneNoiseSetting(@TempDir Path tmp) {
        CommandRun noClip = CommandRun.of("train", "--dataset", "synthetic-lsq", "--algo", "dp-sgd", "--epsilon", "2",
                "--out", tmp.resolve("a").toString());
        assertEquals(2, noClip.exitCode(), noClip.both());
        assertTrue(noClip.err().contains("--clip"), noClip.err());
        CommandRun both = CommandRun.of("train", "--algo", "decor", "--dataset", "synthetic-lsq", "--clip", "1", "--epsilon", "3",
                "--sigma-cdp", "2", "--sigma-cor", "4", "--out", tmp.resolve("b").toString());
        assertEquals(2, both.exitCode(), both.both());
        assertTrue(both.err().contains("either --epsilon"), both.err());
        CommandRun badData = CommandRun.of("train", "--dataset", "cifar", "--out", tmp.resolve("c").toString());
        assertEquals(2, badData.exitCode());
        assertTrue(badData.err().contains("--dataset cifar") && badData.err().contains("synthetic-lsq"), badData.err());
    }

    @Test
    void centralDpSgdOnA9aReportsItsPrivacy(@TempDir Path tmp) throws Exception {
        Path data = TestDataDirectory.require("a9a/a9a.gz");
        Path out = tmp.resolve("dp");
        // Seeded noise and sampling: the accuracy threshold is then checked on one reproducible run.
        CommandRun r = CommandRun.of("train", "--dataset", "a9a", "--epochs", "1", "--batch-size", "512", "--lr", "0.5", "--algo", "dp-sgd",
                "--epsilon", "1", "--clip", "1", "--noise", "seeded", "--data-dir", data.toString(), "--out", out.toString());
        assertEquals(0, r.exitCode(), r.both());
        assertTrue(r.out().contains("Privacy statement"), r.out());
        double eps = CsvTable.read(out.resolve("metrics.csv")).doubles("epsilon")[0];
        assertTrue(eps <= 1.0 && eps > 0.9, "epsilon " + eps);
        double acc = CsvTable.read(out.resolve("metrics.csv")).doubles("test_accuracy")[0];
        assertTrue(acc > 0.76, "better than the majority class (0.76): " + acc);
    }
}
