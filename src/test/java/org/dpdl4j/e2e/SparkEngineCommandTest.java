package org.dpdl4j.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dpdl4j.cli.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpdl4j train --engine spark}: the same seeded run as the local engine, and clear refusals. */
class SparkEngineCommandTest {
    private static final String[] DECOR = {"train", "--algo", "decor", "--dataset", "synthetic-lsq", "--topology", "ring", "--nodes",
            "16", "--rounds", "120", "--eval-every", "40", "--epsilon", "10", "--clip", "1", "--noise", "seeded"};

    @Test
    void decorOnSparkLocal2EndsAtTheLocalEnginesOptimalityGapAndEpsilon(@TempDir Path tmp) throws Exception {
        Path local = tmp.resolve("local");
        Path spark = tmp.resolve("spark");
        CommandRun a = CommandRun.of(with(DECOR, "--out", local.toString()));
        assertEquals(0, a.exitCode(), a.both());
        CommandRun b = CommandRun.of(with(DECOR, "--out", spark.toString(), "--engine", "spark", "--master", "local[2]", "--blocks", "3"));
        assertEquals(0, b.exitCode(), b.both());
        // Every evaluation's losses, optimality gap and epsilon, and every node's distance to the optimum: the same text.
        assertEquals(Files.readString(local.resolve("metrics.csv")), Files.readString(spark.resolve("metrics.csv")));
        assertEquals(Files.readString(local.resolve("nodes.csv")), Files.readString(spark.resolve("nodes.csv")));
        assertEquals(Files.readString(local.resolve("privacy.txt")), Files.readString(spark.resolve("privacy.txt")));
        assertTrue(Files.readString(spark.resolve("config.json")).contains("\"engine\" : \"spark local[2]"));
        assertTrue(Files.readString(local.resolve("config.json")).contains("\"engine\" : \"local\""));
    }

    @Test
    void theMu2ReproductionOnSparkEndsAtTheLocalEnginesNumbers(@TempDir Path tmp) throws Exception {
        String[] grid = {"reproduce", "mu2", "--data-dir", org.dpdl4j.cli.CommandRun.realDataDir("reproduce mu2"), "--examples",
                "400", "--machines", "4", "--epsilons", "8", "--seeds", "1", "--no-reference"};
        Path local = tmp.resolve("local");
        Path spark = tmp.resolve("spark");
        CommandRun a = CommandRun.of(with(grid, "--out", local.toString()));
        assertEquals(0, a.exitCode(), a.both());
        CommandRun b = CommandRun.of(with(grid, "--out", spark.toString(), "--engine", "spark", "--master", "local[2]", "--blocks",
                "2"));
        assertEquals(0, b.exitCode(), b.both());
        assertTrue(b.out().contains("The machines of every run: spark local[2]"), "the machines ran on Spark: " + b.both());
        java.util.List<String> x = Files.readAllLines(local.resolve("mu2.csv"));
        java.util.List<String> y = Files.readAllLines(spark.resolve("mu2.csv"));
        assertEquals(x.get(0), y.get(0));
        assertEquals(3, x.size(), "untrusted and trusted server: " + x);
        java.util.List<String> columns = java.util.List.of(x.get(0).split(","));
        for (int row = 1; row < x.size(); row++) {
            String[] u = x.get(row).split(",");
            String[] v = y.get(row).split(",");
            for (int c = 0; c < u.length; c++) {
                if (columns.get(c).equals("seconds")) {
                    continue;
                }
                if (columns.get(c).equals("trust")) {
                    assertEquals(u[c], v[c]);
                    continue;
                }
                // One JVM's increment is one BLAS call over every machine's row, a block's over its own rows: the
                // tails round differently (README, Running on Spark), so the numbers agree to 1e-6, epsilon exactly.
                double p = Double.parseDouble(u[c]);
                double q = Double.parseDouble(v[c]);
                if (Double.isNaN(p)) {
                    assertTrue(Double.isNaN(q), columns.get(c) + " of row " + row + ": " + q);
                    continue;
                }
                double tolerance = columns.get(c).startsWith("epsilon") ? 0 : 1e-6 * Math.max(1, Math.abs(p));
                assertEquals(p, q, tolerance, columns.get(c) + " of row " + row);
            }
        }
        assertTrue(Files.readString(spark.resolve("README.md")).contains("--engine spark"), "the provenance names the engine");
    }

    @Test
    void aClusterOptionWithoutTheSparkEngineIsAUsageError(@TempDir Path tmp) {
        CommandRun r = CommandRun.of(with(DECOR, "--out", tmp.resolve("x").toString(), "--master", "local[2]"));
        assertEquals(2, r.exitCode(), r.both());
        assertTrue(r.err().contains("--master local[2] has no effect with --engine local") && r.err().contains("add --engine spark"),
                r.err());
        assertTrue(!Files.exists(tmp.resolve("x").resolve("metrics.csv")), "refused before any work");
    }

    @Test
    void centralTrainingCannotBeSplitOverACluster(@TempDir Path tmp) {
        CommandRun r = CommandRun.of("train", "--dataset", "synthetic-lsq", "--epochs", "1", "--out", tmp.resolve("c").toString(),
                "--engine", "spark", "--master", "local[2]");
        assertEquals(2, r.exitCode(), r.both());
        assertTrue(r.err().contains("sgd runs on --engine local only"), r.err());
    }

    private static String[] with(String[] base, String... more) {
        String[] out = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, out, base.length, more.length);
        return out;
    }
}
