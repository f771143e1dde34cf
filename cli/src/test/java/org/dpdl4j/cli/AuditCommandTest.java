package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditCommandTest {

    @Test
    void auditsASmallSyntheticRunAndRescoresItsCanaries(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("audit");
        CommandRun r = CommandRun.of("audit", "--algo", "dp-sgd", "--dataset", "synthetic", "--examples", "2000",
                "--hidden", "64", "--epsilon", "4", "--clip", "1", "--batch-size", "100", "--epochs", "2",
                "--canaries", "400", "--auditor", "white-box", "--noise", "seeded", "--seed", "3",
                "--out", out.toString());
        assertEquals(0, r.exitCode(), r.both());
        double epsilon = r.lastValue(1, "epsilon");
        double lower = r.lastValue(2, "epsilon_lower");
        assertTrue(epsilon > 0 && epsilon <= 4 + 1e-9, r.out());
        assertTrue(lower >= 0 && lower <= epsilon, r.out());
        for (String f : List.of("canaries.csv", "audit.json", "summary.md", "config.json")) {
            assertTrue(Files.isRegularFile(out.resolve(f)), f + "\n" + r.out());
        }
        List<String> rows = Files.readAllLines(out.resolve("canaries.csv"));
        assertEquals("canary,included,score", rows.get(0));
        assertEquals(401, rows.size());
        assertTrue(Files.readString(out.resolve("summary.md")).contains("not an estimate"));
        assertTrue(Files.readString(out.resolve("audit.json")).contains("\"epsilon_lower\""));

        CommandRun again = CommandRun.of("audit", "--rescore", out.resolve("canaries.csv").toString());
        assertEquals(0, again.exitCode(), again.both());
        assertEquals(lower, again.lastValue(1, "epsilon_lower"), 1e-6);
        // A fixed number of guesses is another test of the same scores.
        CommandRun fixed = CommandRun.of("audit", "--rescore", out.resolve("canaries.csv").toString(), "--guesses", "20");
        assertEquals(0, fixed.exitCode(), fixed.both());
        assertTrue(fixed.out().contains("of 20 guesses right"), fixed.out());
        // The audits of a folder collected: a row each, the plot against the diagonal.
        CommandRun collected = CommandRun.of("audit", "--summarize", tmp.toString());
        assertEquals(0, collected.exitCode(), collected.both());
        assertTrue(collected.out().contains("synthetic white-box random m=400 B=100"), collected.out());
        assertTrue(Files.isRegularFile(tmp.resolve("epsilon-lower.png")) && Files.isRegularFile(tmp.resolve("audits.csv")));
        CommandRun empty = CommandRun.of("audit", "--summarize", out.toString());
        assertEquals(2, empty.exitCode(), empty.both());
        assertTrue(empty.err().contains("holds no audit"), empty.err());

        // The directory is claimed: a second run into it is refused and leaves it as it was.
        CommandRun twice = CommandRun.of("audit", "--epsilon", "4", "--examples", "500", "--canaries", "10",
                "--out", out.toString());
        assertEquals(1, twice.exitCode(), twice.both());
        assertEquals(401, Files.readAllLines(out.resolve("canaries.csv")).size());
    }

    @Test
    void theBlackBoxAuditorScoresInputCanariesFromTheFinalModel(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("black-box");
        CommandRun r = CommandRun.of("audit", "--dataset", "synthetic", "--examples", "1000", "--hidden", "32",
                "--epsilon", "4", "--batch-size", "100", "--epochs", "2", "--canaries", "200", "--auditor", "black-box",
                "--noise", "seeded", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.both());
        assertTrue(r.out().contains("mislabelled held-out examples"), r.out());
        double lower = r.lastValue(2, "epsilon_lower");
        assertTrue(lower >= 0 && lower <= r.lastValue(1, "epsilon"), r.out());
        assertEquals(201, Files.readAllLines(out.resolve("canaries.csv")).size());
    }

    @Test
    void auditsDpFedAvgPerObserverAndRefusesAnUndeclaredOne(@TempDir Path tmp) throws Exception {
        for (String[] algoAndObserver : new String[][] {{"dp-fedavg-local", "server"}, {"dp-fedavg-central", "aggregate"}}) {
            Path out = tmp.resolve(algoAndObserver[0]);
            CommandRun r = CommandRun.of("audit", "--algo", algoAndObserver[0], "--observer", algoAndObserver[1],
                    "--dataset", "synthetic", "--examples", "400", "--blank-features", "10", "--hidden", "8", "--clients", "10",
                    "--rounds", "5", "--epsilon", "4", "--canaries", "60", "--noise", "seeded", "--out", out.toString());
            assertEquals(0, r.exitCode(), r.both());
            double epsilon = r.lastValue(1, "epsilon");
            double lower = r.lastValue(2, "epsilon_lower");
            assertTrue(epsilon > 0 && epsilon <= 4 + 1e-9 && lower >= 0 && lower <= epsilon, r.out());
            assertEquals(61, Files.readAllLines(out.resolve("canaries.csv")).size());
            assertTrue(Files.readString(out.resolve("audit.json")).contains("\"observer\" : \"" + algoAndObserver[1] + "\""));
        }
        CommandRun collected = CommandRun.of("audit", "--summarize", tmp.toString());
        assertTrue(collected.out().contains("synthetic dp-fedavg-local observed by the server m=60"), collected.out());
        String[][] cases = {
                {"--algo dp-fedavg-local --observer aggregate", "dp-fedavg-local declares the observers server"},
                {"--algo dp-fedavg-central --observer server", "dp-fedavg-central declares the observers aggregate"},
                {"--algo dp-fedavg-central", "give --observer, one of aggregate"},
                {"--observer server", "--observer applies to the federated audits"},
                {"--algo dp-fedavg-local --observer server --auditor white-box", "--auditor does not apply"},
                {"--algo dp-fedavg-local --observer server --canaries 10", "--blank-features K appends K features"},
        };
        for (String[] c : cases) {
            String[] args = ("audit --epsilon 2 --examples 200 " + c[0] + " --out " + tmp.resolve("x")).split(" ");
            CommandRun r = CommandRun.of(args);
            assertEquals(2, r.exitCode(), c[0] + "\n" + r.both());
            assertTrue(r.err().contains(c[1]), c[0] + "\n" + r.err());
        }
    }

    @Test
    void auditsDecorAndLdpByTheEavesdropperAndRefusesAnUndeclaredObserver(@TempDir Path tmp) throws Exception {
        for (String algo : new String[] {"decor", "ldp"}) {
            Path out = tmp.resolve(algo);
            CommandRun r = CommandRun.of("audit", "--algo", algo, "--observer", "eavesdropper", "--dataset", "synthetic",
                    "--examples", "160", "--blank-features", "10", "--hidden", "8", "--nodes", "8", "--topology", "ring",
                    "--rounds", "5", "--epsilon", "4", "--canaries", "60", "--noise", "seeded", "--out", out.toString());
            assertEquals(0, r.exitCode(), r.both());
            double epsilon = r.lastValue(1, "epsilon");
            double lower = r.lastValue(2, "epsilon_lower");
            assertTrue(epsilon > 0 && epsilon <= 4 + 1e-9 && lower >= 0 && lower <= epsilon, r.out());
            for (String f : List.of("canaries.csv", "audit.json", "summary.md", "config.json")) {
                assertTrue(Files.isRegularFile(out.resolve(f)), f + "\n" + r.out());
            }
            assertEquals(61, Files.readAllLines(out.resolve("canaries.csv")).size());
            String json = Files.readString(out.resolve("audit.json"));
            assertTrue(json.contains("\"observer\" : \"eavesdropper\"") && json.contains("\"protected_unit\" : \"user\""), json);
        }
        CommandRun collected = CommandRun.of("audit", "--summarize", tmp.toString());
        assertEquals(0, collected.exitCode(), collected.both());
        assertTrue(collected.out().contains("synthetic decor observed by the eavesdropper ring n=8 m=60"), collected.out());
        String[][] cases = {
                // LDP declares the eavesdropper only; Decor declares the neighbour, which is not audited yet.
                {"--algo ldp --observer neighbour", "ldp declares the observers eavesdropper"},
                {"--algo decor --observer server", "decor declares the observers eavesdropper, neighbour"},
                {"--algo decor --observer neighbour", "only the eavesdropper is audited so far"},
                {"--algo decor", "give --observer, one of eavesdropper"},
                {"--algo decor --observer eavesdropper --clients 10", "--clients does not apply to --algo decor"},
                {"--algo decor --observer eavesdropper --batch-size 10", "--batch-size does not apply"},
                {"--algo dp-fedavg-local --observer server --nodes 8", "--nodes does not apply to --algo dp-fedavg-local"},
                {"--topology ring", "--topology applies to the decentralized audits"},
                {"--algo decor --observer eavesdropper --nodes 8 --topology wheel", "unknown topology 'wheel'"},
                {"--algo decor --observer eavesdropper --nodes 300", "--nodes 300 is more than the 200 training examples"},
        };
        for (String[] c : cases) {
            String[] args = ("audit --epsilon 2 --examples 200 --blank-features 10 " + c[0] + " --out " + tmp.resolve("x"))
                    .split(" ");
            CommandRun r = CommandRun.of(args);
            assertEquals(2, r.exitCode(), c[0] + "\n" + r.both());
            assertTrue(r.err().contains(c[1]), c[0] + "\n" + r.err());
        }
    }

    @Test
    void badInputIsRefusedWithTheFix(@TempDir Path tmp) {
        String[][] cases = {
                {"--auditor grey-box", "use one of white-box, white-box-centred, white-box-lr, black-box"},
                {"--canary quartz", "use one of random, dirac"},
                {"--auditor black-box --canary dirac", "use a white-box auditor"},
                {"--pixel-scaling unit", "--pixel-scaling applies to --dataset mnist only"},
                // Gaussian features are never 0: no weight is free of the data's gradient.
                {"--canary dirac --auditor white-box-lr --canaries 10", "and this network has 0"},
                {"--algo dsgd", "use --algo dp-sgd"},
                {"--dataset cifar", "use one of synthetic, mnist, a9a, covtype-20k"},
                {"--canaries 10 --guesses 11", "exceeds --canaries 10"},
                {"--canaries 1", "at least 2 canaries"},
                {"--data-dir " + tmp, "--data-dir does not apply to --dataset synthetic"},
                {"--confidence 1.5", "strictly between 0 and 1"},
        };
        for (String[] c : cases) {
            String[] args = ("audit --epsilon 2 --examples 200 " + c[0] + " --out " + tmp.resolve("x")).split(" ");
            CommandRun r = CommandRun.of(args);
            assertEquals(2, r.exitCode(), c[0] + "\n" + r.both());
            assertTrue(r.err().contains(c[1]), c[0] + "\n" + r.err());
            assertFalse(Files.exists(tmp.resolve("x")), c[0] + " touched --out");
        }
        CommandRun noEpsilon = CommandRun.of("audit", "--dataset", "synthetic");
        assertEquals(2, noEpsilon.exitCode());
        assertTrue(noEpsilon.err().contains("--epsilon is required"), noEpsilon.err());
        CommandRun rescoreWithTraining = CommandRun.of("audit", "--rescore", tmp.resolve("c.csv").toString(), "--epsilon", "2");
        assertEquals(2, rescoreWithTraining.exitCode());
        assertTrue(rescoreWithTraining.err().contains("--epsilon does not apply with --rescore"), rescoreWithTraining.err());
    }
}
