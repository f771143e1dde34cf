package org.dpdl4j.cli.train;

import org.dpdl4j.cli.CommandRun;
import org.dpdl4j.data.RealData;
import org.dpdl4j.data.catalog.DatasetCatalog;
import org.dpdl4j.experiments.report.CsvTable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code dpdl4j train} with the federated algorithms: run files, privacy, and refusals of bad input. */
class FederatedTrainCommandTest {
    private static String dataDir;

    @TempDir
    Path tmp;

    @BeforeAll
    static void data() {
        RealData.file(DatasetCatalog.A9A_TRAIN);
        RealData.file(DatasetCatalog.MNIST_TRAIN_IMAGES);
        dataDir = RealData.directory().path().toString();
    }

    private record Run(int exitCode, String err) {
    }

    private Run train(String... args) {
        List<String> all = new ArrayList<>(List.of("train", "--data-dir", dataDir));
        all.addAll(List.of(args));
        if (!all.contains("fedavg")) {
            all.addAll(List.of("--noise", "seeded"));   // plain FedAvg adds no noise, so it takes no --noise
        }
        CommandRun r = CommandRun.of(all.toArray(String[]::new));
        return new Run(r.exitCode(), r.err());
    }

    private void assertRefused(String expected, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--out", tmp.resolve("refused").toString()));   // a refused run may already have created its directory
        Run r = train(all.toArray(String[]::new));
        assertTrue(r.exitCode() == 1 || r.exitCode() == 2, "expected a refusal containing '" + expected + "', got exit code " + r.exitCode());
        assertTrue(r.err().contains(expected), r.err());
    }

    @Test
    void mu2UntrustedOnMnistWritesItsRunFilesAndSpendsExactlyItsBudget() throws IOException {
        Path out = tmp.resolve("mu2");
        Run r = train("--algo", "mu2-untrusted", "--dataset", "mnist", "--machines", "100", "--rounds", "30", "--epsilon", "8",
                "--eval-every", "15", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        for (String f : List.of("config.json", "metrics.csv", "summary.md", "training.png", "privacy.txt", "checkpoint.bin", "partition.txt")) {
            assertTrue(Files.isRegularFile(out.resolve(f)), f);
        }
        CsvTable metrics = CsvTable.read(out.resolve("metrics.csv"));
        assertEquals(2, metrics.size());
        double[] eps = metrics.doubles("epsilon");
        assertEquals(8.0, eps[1], 1e-9, "the calibrated noise spends the whole budget by the last round");
        assertTrue(eps[0] < eps[1], "epsilon so far grows");
        String privacy = Files.readString(out.resolve("privacy.txt"));
        assertTrue(privacy.contains("untrusted server (Algorithm 1)") && privacy.contains("seeded (reproducible) source")
                && privacy.contains("public feature bound ||x|| <= 28") && privacy.contains("every q is clipped to norm <= S"), privacy);
        String config = Files.readString(out.resolve("config.json"));
        assertTrue(config.contains("\"sensitivityBound\"") && config.contains("\"softmax\""), config);
    }

    @Test
    void mu2TrustedWithGivenConstantsOnA9a() throws IOException {
        Path out = tmp.resolve("trusted");
        Run r = train("--algo", "mu2-trusted", "--dataset", "a9a", "--machines", "50", "--rounds", "20", "--epsilon", "2",
                "--lipschitz", "12", "--smoothness", "36", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        String privacy = Files.readString(out.resolve("privacy.txt"));
        assertTrue(privacy.contains("G = 12.0000, L = 36.0000") && privacy.contains("(given by the user)")
                && privacy.contains("every q is clipped to norm <= S"), privacy);
        Run both = train("--algo", "mu2-trusted", "--dataset", "a9a", "--machines", "50", "--rounds", "20", "--epsilon", "2",
                "--lipschitz", "12", "--smoothness", "36", "--feature-norm-bound", "4", "--out", tmp.resolve("both").toString());
        assertEquals(2, both.exitCode(), both.err());
        assertTrue(both.err().contains("--feature-norm-bound sets G and L"), both.err());
    }

    @Test
    void everyFederatedAveragingVariantRuns() throws IOException {
        String[][] runs = {
                {"--algo", "fedavg", "--weighting", "size", "--client-rate", "0.6"},
                {"--algo", "dp-fedavg-local", "--clip", "1", "--epsilon", "2"},
                {"--algo", "dp-fedavg-central", "--clip", "1", "--epsilon", "2", "--client-rate", "0.6", "--client-sampling", "fixed"},
                {"--algo", "gopa", "--clip", "1", "--epsilon", "2", "--colluding-fraction", "0.2", "--gopa-k", "2"}};
        for (String[] algo : runs) {
            Path out = tmp.resolve(algo[1]);
            List<String> args = new ArrayList<>(List.of("--dataset", "a9a", "--machines", "5", "--rounds", "2", "--local-steps", "2",
                    "--batch-size", "16", "--out", out.toString()));
            args.addAll(List.of(algo));
            Run r = train(args.toArray(String[]::new));
            assertEquals(0, r.exitCode(), algo[1] + ": " + r.err());
            CsvTable metrics = CsvTable.read(out.resolve("metrics.csv"));
            assertEquals(2, metrics.size(), algo[1]);
            if (!algo[1].equals("fedavg")) {
                // every variant is calibrated by the accountant that prices its ledger: the run ends at its target
                double eps = metrics.doubles("epsilon")[1];
                assertTrue(eps <= 2.0, algo[1] + ": " + eps);
                assertEquals(2.0, eps, 1e-6, algo[1]);
                assertTrue(Files.isRegularFile(out.resolve("privacy.txt")), algo[1]);
            }
        }
        String gopa = Files.readString(tmp.resolve("gopa").resolve("privacy.txt"));
        assertTrue(gopa.contains("colluding with 1 of the 5 parties") && gopa.contains("exact worst case"), gopa);
        String central = Files.readString(tmp.resolve("dp-fedavg-central").resolve("privacy.txt"));
        assertTrue(central.contains("without replacement") && central.contains("REPLACE_ONE"), central);
    }

    @Test
    void gopaOverSampledColludingSetsReportsAnEstimateWhereverItsEpsilonIsShown() throws IOException {
        Path out = tmp.resolve("gopa-sampled");
        Run r = train("--algo", "gopa", "--dataset", "a9a", "--machines", "6", "--rounds", "2", "--local-steps", "1",
                "--batch-size", "16", "--clip", "1", "--epsilon", "2", "--colluding-fraction", "0.2", "--gopa-k", "2",
                "--colluding-sets", "sampled:10", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        String privacy = Files.readString(out.resolve("privacy.txt"));
        assertTrue(privacy.contains("WARNING: this epsilon is not a guarantee: it is an ESTIMATE: GOPA's kappa is the largest over 10"
                + " randomly sampled colluding sets"), privacy);
        String summary = Files.readString(out.resolve("summary.md"));
        assertTrue(summary.contains("not a guarantee, see privacy.txt"), summary);
        assertTrue(privacy.contains("Covers nothing as a guarantee (see the WARNING above)")
                && privacy.contains("partition.txt (the parties' data and the run, exactly); config.json"), privacy);
        CommandRun dry = CommandRun.of("train", "--data-dir", dataDir, "--algo", "gopa", "--dataset", "a9a", "--machines", "6",
                "--rounds", "2", "--local-steps", "1", "--batch-size", "16", "--clip", "1", "--epsilon", "2", "--colluding-fraction",
                "0.2", "--gopa-k", "2", "--colluding-sets", "sampled:10", "--noise", "seeded", "--dry-run");
        assertEquals(0, dry.exitCode(), dry.both());
        assertTrue(dry.out().contains("WARNING: this epsilon is not a guarantee: it is an ESTIMATE"), dry.out());
    }

    @Test
    void verifiedGopaProvesEveryPartysRoundsAndTrainsAsUnverifiedGopaDoes() throws IOException {
        String[] common = {"--algo", "gopa", "--dataset", "a9a", "--machines", "5", "--rounds", "2", "--local-steps", "2",
                "--batch-size", "16", "--clip", "1", "--epsilon", "2", "--gopa-k", "2"};
        Path plain = tmp.resolve("gopa-plain");
        Path verified = tmp.resolve("gopa-verified");
        assertEquals(0, train(with(common, "--out", plain.toString())).exitCode());
        Run r = train(with(common, "--verify", "--verify-coordinates", "4", "--out", verified.toString()));
        assertEquals(0, r.exitCode(), r.err());
        CsvTable log = CsvTable.read(verified.resolve("verification.csv"));
        assertEquals(2 * 5, log.size(), "a row per round and party");
        assertTrue(log.rows().stream().allMatch(row -> String.join(",", row).contains("passed")), "honest parties pass: " + log.rows());
        // Verification proves what the parties did; it spends the same, and the server averages their published
        // fixed-point values (parts to 2^-16 of [-C, C]) instead of floats, which moves the model by that rounding alone.
        CsvTable plainMetrics = CsvTable.read(plain.resolve("metrics.csv"));
        CsvTable verifiedMetrics = CsvTable.read(verified.resolve("metrics.csv"));
        assertArrayEquals(plainMetrics.doubles("epsilon"), verifiedMetrics.doubles("epsilon"), 0.0);
        assertArrayEquals(plainMetrics.doubles("test_loss"), verifiedMetrics.doubles("test_loss"), 1e-3);
        assertRefused("--verify-coordinates", "--algo", "gopa", "--dataset", "a9a", "--clip", "1", "--epsilon", "1",
                "--verify-coordinates", "4");
        assertRefused("--verify has no effect with --algo dp-fedavg-local", "--algo", "dp-fedavg-local", "--dataset", "a9a",
                "--clip", "1", "--epsilon", "1", "--verify");
    }

    private static String[] with(String[] base, String... more) {
        String[] out = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, out, base.length, more.length);
        return out;
    }

    @Test
    void badInputIsRefusedWithTheReasonAndTheFix() {
        assertRefused("--machines 40000 is larger than the 32561 training examples", "--algo", "mu2-untrusted", "--dataset",
                "a9a", "--machines", "40000", "--epsilon", "1");
        assertRefused("--diameter 0: must be a number > 0", "--algo", "mu2-trusted", "--dataset", "a9a",
                "--machines", "10", "--rounds", "5", "--epsilon", "1", "--diameter", "0");
        assertRefused("--epsilon 0: must be a number > 0", "--algo", "mu2-untrusted", "--dataset", "a9a",
                "--machines", "10", "--rounds", "5", "--epsilon", "0");
        assertRefused("uses every example once", "--algo", "mu2-untrusted", "--dataset", "a9a", "--machines", "10000", "--rounds", "5",
                "--epsilon", "1");
        assertRefused("--local-steps", "--algo", "mu2-untrusted", "--dataset", "a9a", "--machines", "10", "--epsilon", "1",
                "--local-steps", "3");
        assertRefused("needs --clip S", "--algo", "dp-fedavg-central", "--dataset", "a9a", "--epsilon", "1");
        assertRefused("--client-rate has no effect with --algo gopa", "--algo", "gopa", "--dataset", "a9a", "--clip", "1", "--epsilon", "1",
                "--client-rate", "0.5");
        assertRefused("--colluding-fraction has no effect with --algo dp-fedavg-local", "--algo", "dp-fedavg-local", "--dataset", "a9a", "--clip", "1", "--epsilon", "1",
                "--colluding-fraction", "0.1");
        assertRefused("--topology has no effect with --algo fedavg", "--algo", "fedavg", "--dataset", "a9a", "--topology", "ring");
        assertRefused("give both --lipschitz G and --smoothness L", "--algo", "mu2-trusted", "--dataset", "a9a", "--machines", "10",
                "--epsilon", "1", "--lipschitz", "3");
    }
}
