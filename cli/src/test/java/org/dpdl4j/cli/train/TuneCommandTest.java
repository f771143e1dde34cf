package org.dpdl4j.cli.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dpdl4j.cli.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TuneCommandTest {

    @Test
    void helpListsTheTuningOptionsAndTheAlgorithmsOptions() {
        CommandRun r = CommandRun.of("tune", "--help");
        assertEquals(0, r.exitCode());
        for (String flag : new String[] {"--space", "--candidates", "--epsilon-total", "--tuning-data", "--score-noise", "--lr", "--clip"}) {
            assertTrue(r.out().contains(flag), flag + " in\n" + r.out());
        }
        assertTrue(r.out().contains("Papernot & Steinke"));
    }

    @Test
    void badTuningOptionsAreUsageErrorsNamingTheFix() {
        CommandRun r = CommandRun.of("tune", "--algo", "dp-sgd", "--dataset", "a9a", "--space", "dp-sgd", "--candidates", "uniform:3");
        assertEquals(2, r.exitCode(), r.both());
        assertTrue(r.err().contains("geometric:MEAN"), r.err());
        r = CommandRun.of("tune", "--algo", "dp-sgd", "--dataset", "a9a", "--space", "dp-sgd", "--rounds", "3");
        assertEquals(2, r.exitCode(), r.both());
        assertTrue(r.err().contains("--rounds has no effect with --algo dp-sgd"), r.err());
    }

    @Test
    void tuningA9aWithCentralDpSgdEndsWithinItsTotalBudget(@TempDir Path dir) throws Exception {
        String data = CommandRun.realDataDir("tuning on a9a");
        Path out = dir.resolve("t");
        CommandRun r = CommandRun.of("tune", "--algo", "dp-sgd", "--dataset", "a9a", "--data-dir", data, "--space", "dp-sgd",
                "--pool", "4", "--candidates", "geometric:2", "--epsilon-total", "3", "--noise", "seeded",
                "--out", out.toString());
        assertEquals(0, r.exitCode(), r.both());
        String privacy = Files.readString(out.resolve("privacy.txt"));
        assertTrue(privacy.contains("tuning included"), privacy);
        double eps = Double.parseDouble(privacy.replaceAll("(?s).*tuning included: epsilon = ([0-9.]+).*", "$1"));
        assertTrue(eps <= 3.0, privacy);
        assertTrue(Files.readString(out.resolve("best.json")).contains("dpdl4j train --algo dp-sgd"));
        assertTrue(privacy.startsWith("WARNING: SEEDED NOISE"), privacy);
        assertTrue(Files.isRegularFile(out.resolve("operator/candidates.csv")) && !Files.exists(out.resolve("candidates.csv")));
        assertTrue(privacy.contains("priced by: additive"), "the tuning's ledger names the candidates' accountant: " + privacy);

        Path renyi = dir.resolve("rdp");
        CommandRun rdp = CommandRun.of("tune", "--algo", "dp-sgd", "--dataset", "a9a", "--data-dir", data, "--space", "dp-sgd",
                "--pool", "4", "--candidates", "geometric:2", "--epsilon-total", "3", "--noise", "seeded", "--accountant",
                "rdp", "--out", renyi.toString());
        assertEquals(0, rdp.exitCode(), rdp.both());
        String renyiPrivacy = Files.readString(renyi.resolve("privacy.txt"));
        assertTrue(renyiPrivacy.contains("priced by: rdp"), "the accountant asked for, not the default: " + renyiPrivacy);
    }

    /** A tuning of candidates whose epsilon is not a guarantee is not one either, and says why. */
    @Test
    void tuningCandidatesWithoutAGuaranteeReleasesNone(@TempDir Path dir) throws Exception {
        String data = CommandRun.realDataDir("tuning on a9a");
        Path space = Files.writeString(dir.resolve("space.json"), "{\"zeta\": {\"choice\": [\"0.99\", \"1\"]}}");
        Path out = dir.resolve("t");
        CommandRun r = CommandRun.of("tune", "--algo", "dp-pg-extra", "--dataset", "a9a", "--data-dir", data, "--space",
                space.toString(), "--pool", "2", "--candidates", "geometric:2", "--epsilon-total", "5", "--clip", "1", "--nodes",
                "4", "--rounds", "5", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.both());
        String privacy = Files.readString(out.resolve("privacy.txt"));
        assertTrue(privacy.contains("WARNING: this epsilon is not a guarantee: neither is a candidate's: dp-pg-extra prices each"
                + " publication"), privacy);
    }
}
