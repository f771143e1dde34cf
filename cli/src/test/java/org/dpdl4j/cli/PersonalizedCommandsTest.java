package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code account personalized}: plain and advanced composition of pure-DP releases, checked against KOV15 by hand; and
 * the personalized protocols under {@code train} on the collaborative task.
 */
class PersonalizedCommandsTest {

    /** KOV15's three-way minimum for T releases of epsilon each, written out. */
    private static double kov(double e, long t, double delta) {
        double sum = t * e;
        double drift = t * (Math.exp(e) - 1) * e / (Math.exp(e) + 1);
        double squares = t * e * e;
        return Math.min(sum, Math.min(drift + Math.sqrt(2 * squares * Math.log(Math.E + Math.sqrt(squares) / delta)),
                drift + Math.sqrt(2 * squares * Math.log(1 / delta))));
    }

    @Test
    void equalReleasesEndWithThePlainSumAndTheThreeWayMinimum() {
        CommandRun r = CommandRun.of("account", "personalized", "--per-release-epsilon", "0.0015", "--releases", "100", "--delta",
                "0.006737947");
        assertEquals(0, r.exitCode(), r.both());
        assertEquals(0.15, r.lastValue(2, "epsilon_sum"), 1e-12);
        double expected = kov(0.0015, 100, 0.006737947);
        assertEquals(expected, r.lastValue(1, "epsilon"), 1e-12);
        assertTrue(expected < 0.15, "many small releases compose below their sum");
    }

    @Test
    void aListOfReleasesAndASingleRelease() {
        CommandRun list = CommandRun.of("account", "personalized", "--epsilons", "0.1,0.05,0.05", "--delta", "1e-5");
        assertEquals(0, list.exitCode(), list.both());
        assertEquals(0.2, list.lastValue(2, "epsilon_sum"), 1e-12);
        assertTrue(list.lastValue(1, "epsilon") <= 0.2 + 1e-15);
        CommandRun one = CommandRun.of("account", "personalized", "--epsilons", "0.3", "--delta", "1e-5");
        assertEquals(0.3, one.lastValue(1, "epsilon"), 1e-15, "a single release is its own epsilon");
    }

    @Test
    void refusesAnIncompleteOrDoubleSpecification() {
        CommandRun missing = CommandRun.of("account", "personalized", "--releases", "3", "--delta", "1e-5");
        assertTrue(missing.exitCode() != 0 && missing.both().contains("--per-release-epsilon E with --releases T"), missing.both());
        CommandRun both = CommandRun.of("account", "personalized", "--epsilons", "0.1", "--per-release-epsilon", "0.1", "--releases",
                "2", "--delta", "1e-5");
        assertTrue(both.exitCode() != 0, both.both());
        CommandRun zero = CommandRun.of("account", "personalized", "--epsilons", "0.1,0", "--delta", "1e-5");
        assertTrue(zero.exitCode() != 0, zero.both());
    }

    /** dp-personalized-cd on 12 collaborative users in R^5, 120 ticks, epsilon-bar 2, into {@code out}, with {@code more}. */
    private static CommandRun privateCd(Path out, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("train", "--algo", "dp-personalized-cd", "--dataset", "collaborative",
                "--users", "12", "--dim", "5", "--rounds", "120", "--epsilon", "2", "--out", out.toString()));
        args.addAll(List.of(more));
        return CommandRun.of(args.toArray(String[]::new));
    }

    /** The dry run says what the run says: weights from the users' own data are marked, a public bound is not. */
    @Test
    void theDryRunMarksWeightsFromTheUsersOwnData(@TempDir Path dir) {
        CommandRun own = privateCd(dir.resolve("own"), "--noise", "seeded", "--dry-run");
        assertEquals(0, own.exitCode(), own.both());
        assertTrue(own.out().contains("WARNING: this epsilon is not a guarantee: each agent's update weight"), own.out());
        CommandRun bounded = privateCd(dir.resolve("bounded"), "--noise", "seeded", "--dry-run", "--feature-norm-bound", "1");
        assertEquals(0, bounded.exitCode(), bounded.both());
        assertTrue(!bounded.out().contains("WARNING: this epsilon is not a guarantee"), bounded.out());
    }

    @Test
    void privateCoordinateDescentTrainsEveryUserItsOwnModelWithAStatement(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        CommandRun r = privateCd(out, "--trade-off", "1", "--noise", "seeded");
        assertEquals(0, r.exitCode(), r.both());
        String privacy = Files.readString(out.resolve("privacy.txt"));
        // weights from the users' own data: the same statement, marked not a guarantee
        assertTrue(privacy.contains("The run's epsilon (not a guarantee: see the WARNING): (2.000000, 0)-DP for every agent, the"
                + " plain composition") && privacy.contains("advanced composition")
                && privacy.contains("WARNING: this epsilon is not a guarantee: each agent's update weight"), privacy);
        List<String> nodes = Files.readAllLines(out.resolve("nodes.csv"));
        assertEquals("node,train_examples,test_loss,test_accuracy", nodes.get(0));
        assertEquals(13, nodes.size(), "one row per user");
        assertTrue(r.out().contains("test accuracy"), r.out());
    }

    @Test
    void aPublicFeatureBoundTakesTheWeightsOffTheData(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("bounded");
        CommandRun r = privateCd(out, "--noise", "seeded", "--feature-norm-bound", "1");
        assertEquals(0, r.exitCode(), r.both());
        String privacy = Files.readString(out.resolve("privacy.txt"));
        assertTrue(privacy.contains("follow the public feature bound ||x|| <= 1.0") && !privacy.contains("Not accounted"), privacy);
        CommandRun small = privateCd(dir.resolve("s"), "--feature-norm-bound", "0.01");
        assertTrue(small.exitCode() != 0 && small.err().contains("raise the bound"), small.both());
        CommandRun plain = CommandRun.of("train", "--algo", "personalized-cd", "--dataset", "collaborative", "--users", "12",
                "--rounds", "10", "--feature-norm-bound", "1", "--out", dir.resolve("p").toString());
        assertTrue(plain.exitCode() != 0 && plain.err().contains("--feature-norm-bound"), "not an option of the non-private"
                + " protocol: " + plain.both());
    }

    @Test
    void theNonPrivateAlgorithmsTrainAndOtherDataSetsAreRefused(@TempDir Path dir) {
        for (String algo : List.of("personalized-cd", "model-propagation", "personalized-admm")) {
            CommandRun r = CommandRun.of("train", "--algo", algo, "--dataset", "collaborative", "--users", "10", "--dim", "3",
                    "--rounds", "50", "--out", dir.resolve(algo).toString());
            assertEquals(0, r.exitCode(), algo + ": " + r.both());
        }
        CommandRun shared = CommandRun.of("train", "--algo", "sgd", "--dataset", "collaborative", "--users", "10", "--dim", "3",
                "--epochs", "1", "--out", dir.resolve("sgd").toString());
        assertEquals(0, shared.exitCode(), "one shared model is evaluated on the pooled data: " + shared.both());
        CommandRun noGraph = CommandRun.of("train", "--algo", "personalized-cd", "--dataset", "synthetic-lsq", "--rounds", "10",
                "--out", dir.resolve("lsq").toString());
        assertTrue(noGraph.exitCode() != 0 && noGraph.both().contains("--dataset collaborative"), noGraph.both());
        CommandRun laplaceDelta = CommandRun.of("train", "--algo", "dp-personalized-cd", "--dataset", "collaborative", "--users", "10",
                "--rounds", "10", "--epsilon", "1", "--release-delta", "1e-6", "--out", dir.resolve("d").toString());
        assertTrue(laplaceDelta.exitCode() != 0 && laplaceDelta.err().contains("--release-delta"), laplaceDelta.both());
        CommandRun users = CommandRun.of("train", "--algo", "personalized-cd", "--dataset", "synthetic-lsq", "--users", "10",
                "--rounds", "10", "--out", dir.resolve("u").toString());
        assertTrue(users.exitCode() != 0 && users.err().contains("--users"), users.both());
    }
}
