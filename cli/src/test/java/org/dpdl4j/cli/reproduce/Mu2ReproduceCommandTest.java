package org.dpdl4j.cli.reproduce;

import org.dpdl4j.cli.CommandRun;
import org.dpdl4j.data.RealData;
import org.dpdl4j.data.catalog.DatasetCatalog;
import org.dpdl4j.experiments.report.CsvTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A small {@code dpdl4j reproduce mu2} grid: its files, and the identity of the two trust models at M = 1. */
class Mu2ReproduceCommandTest {
    @TempDir
    Path tmp;

    @Test
    void aSmallGridWritesItsFilesAndOneMachineIsTheSameUnderBothTrustModels() throws IOException {
        RealData.file(DatasetCatalog.MNIST_TRAIN_IMAGES);
        String env = RealData.directory().path().toString();
        Path out = tmp.resolve("mu2");
        CommandRun first = CommandRun.of("reproduce", "mu2", "--data-dir", env, "--examples", "200", "--machines", "1,10", "--epsilons", "4,16",
                "--seeds", "2", "--out", out.toString());
        assertEquals(0, first.exitCode(), first.err());
        CsvTable csv = CsvTable.read(out.resolve("mu2.csv"));
        assertEquals(2 * (2 * 2 * 2 + 1), csv.size(), "M x epsilon x trust, plus the non-private reference, for each of 2 seeds");
        assertEquals(List.of("1", "2"), csv.column("seed").stream().distinct().toList());
        List<String> trust = csv.column("trust");
        double[] loss = csv.doubles("test_loss");
        double[] sigma = csv.doubles("sigma");
        assertEquals("untrusted", trust.get(0));
        assertEquals("trusted", trust.get(2));
        assertEquals(loss[0], loss[2], 0.0, "M = 1, epsilon = 4: same numbers under both trust models");
        assertEquals(sigma[0], sigma[2], 0.0);
        assertEquals(sigma[4] / 10, sigma[6], 1e-12 * sigma[4], "M = 10: trusted sigma is untrusted / M");
        assertEquals(4.0, csv.doubles("epsilon_achieved")[0], 1e-9);
        assertTrue(Files.size(out.resolve("mu2.png")) > 10_000);
        String readme = Files.readString(out.resolve("README.md"));

        // Run again: every run is read back from mu2.csv instead of trained; a grid with another delta is refused.
        CommandRun again = CommandRun.of("reproduce", "mu2", "--data-dir", env, "--examples", "200", "--machines", "1,10", "--epsilons", "4,16",
                "--seeds", "2", "--out", out.toString());
        assertEquals(0, again.exitCode(), again.err());
        assertTrue(again.out().contains("Resuming: 18 finished runs"), again.out());
        String beforeProvenance = "(?s)## Provenance.*";   // start time and duration differ
        assertEquals(readme.replaceAll(beforeProvenance, ""), Files.readString(out.resolve("README.md")).replaceAll(beforeProvenance, ""),
                "same tables and checks");
        CommandRun refusal = CommandRun.of("reproduce", "mu2", "--data-dir", env, "--examples", "200", "--machines", "1",
                "--epsilons", "4", "--seeds", "1", "--delta", "1e-6", "--out", out.toString());
        assertEquals(1, refusal.exitCode());
        assertTrue(refusal.err().contains("--fresh"), refusal.err());
        assertTrue(readme.contains("[x] M = 1 identical under both trust models (epsilon = 4)"), readme);
        assertTrue(readme.contains("| G |") && readme.contains("| delta | 1.0E-5 |") && readme.contains("Means over 2 seeds"), readme);
        assertTrue(readme.contains("the exact Gaussian curve's (tightest accountant)"), readme);

        // The papers' zCDP calibration (--accountant rdp) draws more noise at the same target; one directory never mixes the two.
        CommandRun mixed = CommandRun.of("reproduce", "mu2", "--data-dir", env, "--examples", "200", "--machines", "1,10",
                "--epsilons", "4,16", "--seeds", "2", "--accountant", "rdp", "--out", out.toString());
        assertEquals(1, mixed.exitCode());
        assertTrue(mixed.err().contains("priced by the tightest accountant") && mixed.err().contains("pass --accountant tightest"),
                mixed.err());
        Path papers = tmp.resolve("mu2-rdp");
        CommandRun renyi = CommandRun.of("reproduce", "mu2", "--data-dir", env, "--examples", "200", "--machines", "1", "--epsilons", "4",
                "--seeds", "1", "--no-reference", "--accountant", "rdp", "--out", papers.toString());
        assertEquals(0, renyi.exitCode(), renyi.err());
        assertEquals("rdp\ndelta=1.0E-5\ndiameter=0.1\nexamples=200\nnoise=seeded\nseed=1\n",
                Files.readString(papers.resolve("accounting.txt")));
        double paperSigma = CsvTable.read(papers.resolve("mu2.csv")).doubles("sigma")[0];
        assertTrue(paperSigma > 1.15 * sigma[0], "zCDP's closed form needs more noise: " + paperSigma + " vs " + sigma[0]);
        assertEquals(4.0, CsvTable.read(papers.resolve("mu2.csv")).doubles("epsilon_achieved")[0], 1e-9);
        assertTrue(Files.readString(papers.resolve("README.md")).contains("closed form sigma^2 = 2 T S^2 / rho"));

        // An earlier version labelled its zCDP-calibrated rows "tightest": the rows' own noise gives them away.
        Path earlier = tmp.resolve("mu2-earlier");
        Files.createDirectories(earlier);
        Files.copy(papers.resolve("mu2.csv"), earlier.resolve("mu2.csv"));
        Files.writeString(earlier.resolve("accounting.txt"), Files.readString(papers.resolve("accounting.txt"))
                .replaceFirst("^rdp\n", "tightest\n"));
        CommandRun resumed = CommandRun.of("reproduce", "mu2", "--data-dir", env, "--examples", "200", "--machines", "1", "--epsilons",
                "4", "--seeds", "1", "--no-reference", "--out", earlier.toString());
        assertEquals(1, resumed.exitCode());
        assertTrue(resumed.err().contains("calibrated otherwise") && resumed.err().contains("--fresh"), resumed.err());
    }
}
