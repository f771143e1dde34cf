package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The DP-RECAL commands: {@code account recal} and {@code train --algo recal|dp-recal|…} on data that needs no download. */
class RecalCommandsTest {

    @Test
    void accountRecalEndsWithRhoAndEveryAccountantsEpsilonFromTheClosedForms() {
        double sum = (Math.pow(0.999, -600) - 1) / (1 / 0.999 - 1);
        double rho = sum / (2 * 30.0 * 30.0);
        double exact = GaussianPrivacyCurve.epsilon(Math.sqrt(2 * rho), 1e-5);
        assertTrue(exact < 0.9 * ZCdp.epsilon(rho, 1e-5), "the exact curve is the tighter here: " + exact);
        for (String accountant : new String[] {"tightest", "rdp"}) {
            CommandRun r = CommandRun.of("account", "recal", "--lci", "600", "--sensitivity", "1", "--sigma", "30", "--zeta", "0.999",
                    "--delta", "1e-5", "--accountant", accountant, "--paper-accounting");
            assertEquals(0, r.exitCode(), r.both());
            assertTrue(r.out().contains("WARNING: this epsilon is not a guarantee: dp-recal priced each publication"), r.out());
            assertEquals(rho, r.lastValue(5, "rho"), 1e-12 * rho);
            assertEquals(ZCdp.epsilon(rho, 1e-5), r.lastValue(4, "epsilon_zcdp"), 1e-12);
            assertEquals(exact, r.lastValue(3, "epsilon_gaussian"), 1e-12);
            boolean tightest = accountant.equals("tightest");
            assertEquals("epsilon_accountant=" + (tightest ? "gaussian" : "zcdp"), r.lastLines(2).get(0), r.out());
            assertEquals(tightest ? exact : ZCdp.epsilon(rho, 1e-5), r.lastValue(1, "epsilon"), 1e-12);
        }
    }

    /** By default the m-th publication has sensitivity D (m + 1)/2 (the drift of the agent's state), a proven bound. */
    @Test
    void accountRecalPricesTheDriftOfTheStateByDefault() {
        double sum = 0;
        for (int m = 1; m <= 600; m++) {
            sum += (m + 1) * (m + 1) / 4.0 * Math.pow(0.999, -(m - 1));
        }
        double rho = sum / (2 * 3000.0 * 3000.0);
        CommandRun r = CommandRun.of("account", "recal", "--lci", "600", "--sensitivity", "1", "--sigma", "3000", "--zeta", "0.999",
                "--delta", "1e-5");
        assertEquals(0, r.exitCode(), r.both());
        assertTrue(!r.out().contains("WARNING") && r.out().contains("sensitivity 1.0 x (m + 1)/2 at the m-th")
                && r.out().contains("Assumes least squares"), r.out());
        assertEquals(rho, r.lastValue(5, "rho"), 1e-12 * rho);
        assertEquals(GaussianPrivacyCurve.epsilon(Math.sqrt(2 * rho), 1e-5), r.lastValue(1, "epsilon"), 1e-12);
    }

    @Test
    void accountRecalCalibratesSigmaToATargetOnTheChosenAccountantsCurve() {
        double drift = (601.0 * 602 * 1203 / 6 - 1) / 4;   // sum_{m=1..600} ((m + 1)/2)^2
        CommandRun r = CommandRun.of("account", "recal", "--lci", "600", "--sensitivity", "1", "--epsilon", "2", "--delta", "1e-5");
        assertEquals(0, r.exitCode(), r.both());
        double eps = r.lastValue(1, "epsilon");
        assertTrue(eps <= 2 && eps > 2 - 1e-9, "epsilon " + eps);
        double mu = GaussianPrivacyCurve.mu(2, 1e-5);
        assertEquals(Math.sqrt(drift / (mu * mu)), r.lastValue(6, "sigma"), 1e-6 * Math.sqrt(drift));
        CommandRun paper = CommandRun.of("account", "recal", "--lci", "600", "--sensitivity", "1", "--epsilon", "2", "--delta", "1e-5",
                "--paper-accounting");
        assertEquals(Math.sqrt(600 / (mu * mu)), paper.lastValue(6, "sigma"), 1e-6);
        CommandRun renyi = CommandRun.of("account", "recal", "--lci", "600", "--sensitivity", "1", "--epsilon", "2", "--delta", "1e-5",
                "--accountant", "rdp");
        assertEquals(0, renyi.exitCode(), renyi.both());
        assertEquals(Math.sqrt(drift / (2 * ZCdp.rho(2, 1e-5))), renyi.lastValue(6, "sigma"), 1e-6 * Math.sqrt(drift));
        double zcdp = renyi.lastValue(1, "epsilon");
        assertTrue(zcdp <= 2 && zcdp > 2 - 1e-9, "epsilon " + zcdp);
        assertTrue(renyi.lastValue(6, "sigma") > 1.1 * r.lastValue(6, "sigma"), "the paper's conversion needs more noise");
    }

    @Test
    void accountRecalRefusesImpossibleSettings() {
        CommandRun zeta = CommandRun.of("account", "recal", "--lci", "6", "--sensitivity", "1", "--sigma", "3", "--zeta", "1.5", "--delta", "1e-5");
        assertEquals(2, zeta.exitCode());
        assertTrue(zeta.err().contains("--zeta must lie in (0, 1]"), zeta.err());
        CommandRun both = CommandRun.of("account", "recal", "--lci", "6", "--sensitivity", "1", "--sigma", "3", "--epsilon", "1", "--delta", "1e-5");
        assertEquals(2, both.exitCode());
        assertTrue(both.err().contains("exactly one of --sigma"), both.err());
    }

    /**
     * {@code reproduce recal --feature-norm-bound}: the private algorithms take their steps from the public bound (a
     * record beyond it is refused, so the bound reaches them) and the table says so.
     */
    @Test
    void theReproductionTakesThePrivateStepsFromAPublicBound(@TempDir Path dir) throws Exception {
        String data = CommandRun.realDataDir("the covtype reproduction");
        CommandRun bounded = CommandRun.of("reproduce", "recal", "--quick", "--data-dir", data, "--feature-norm-bound", "7.3485",
                "--out", dir.resolve("bounded").toString());
        assertEquals(0, bounded.exitCode(), bounded.both());
        assertTrue(Files.readString(dir.resolve("bounded").resolve("table.txt"))
                .contains("the private algorithms' steps from the public feature bound B = 7.3485"));
        CommandRun tooSmall = CommandRun.of("reproduce", "recal", "--quick", "--data-dir", data, "--feature-norm-bound", "1",
                "--out", dir.resolve("small").toString());
        assertEquals(1, tooSmall.exitCode());
        assertTrue(tooSmall.err().contains("beyond the public bound --feature-norm-bound 1.0")
                && tooSmall.err().contains("raise the bound"), tooSmall.err());
    }

    @Test
    void dpRecalTrainsWithALedgerAndAStatement(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        CommandRun r = CommandRun.of("train", "--algo", "dp-recal", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds", "320",
                "--clip", "1", "--epsilon", "2", "--zeta", "0.99", "--noise", "seeded", "--penalty", "l1:0.01", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.both());
        String privacy = Files.readString(out.resolve("privacy.txt"));
        assertTrue(privacy.contains("DP-RECAL") && privacy.contains("local communication involvement"), privacy);
        // least squares at the default steps: priced with the drift of the agents' state, but the steps follow their data
        assertTrue(privacy.contains("the drift of each agent's unpublished state is priced")
                && privacy.contains("WARNING: this epsilon is not a guarantee: dp-recal's publications are priced with the drift")
                && privacy.contains("--feature-norm-bound B"), privacy);
        CommandRun dry = CommandRun.of("train", "--algo", "dp-recal", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds",
                "320", "--clip", "1", "--epsilon", "2", "--zeta", "0.99", "--noise", "seeded", "--penalty", "l1:0.01", "--dry-run",
                "--feature-norm-bound", "1000");
        assertEquals(0, dry.exitCode(), dry.both());
        assertTrue(!dry.out().contains("WARNING: this epsilon is not a guarantee"), dry.out());
        CommandRun ownSteps = CommandRun.of("train", "--algo", "dp-recal", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds",
                "320", "--clip", "1", "--epsilon", "2", "--zeta", "0.99", "--noise", "seeded", "--penalty", "l1:0.01", "--dry-run");
        assertEquals(0, ownSteps.exitCode(), ownSteps.both());
        assertTrue(ownSteps.out().contains("WARNING: this epsilon is not a guarantee: dp-recal's publications are priced with"
                + " the drift"), ownSteps.out());
        Path paper = dir.resolve("paper");
        CommandRun p = CommandRun.of("train", "--algo", "dp-recal", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds", "320",
                "--clip", "1", "--epsilon", "2", "--zeta", "0.99", "--noise", "seeded", "--penalty", "l1:0.01", "--paper-accounting",
                "--out", paper.toString());
        assertEquals(0, p.exitCode(), p.both());
        String paperPrivacy = Files.readString(paper.resolve("privacy.txt"));
        assertTrue(paperPrivacy.contains("not a guarantee: dp-recal priced each publication with the sensitivity of the gradient"
                + " it adds, conditioned on the agent's internal state") && paperPrivacy.contains("(m + 1)/2")
                && paperPrivacy.contains("here the paper's accounting was asked for (--paper-accounting)"), paperPrivacy);
        assertTrue(Files.readString(out.resolve("metrics.csv")).lines().count() > 2);
        assertTrue(Files.exists(out.resolve("model.zip")));
    }

    @Test
    void aPublicFeatureBoundTakesTheStepsOffTheDataOrIsRefusedWithTheFix(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("bounded");
        CommandRun r = CommandRun.of("train", "--algo", "dp-pg-extra", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds", "40",
                "--clip", "1", "--epsilon", "2", "--noise", "seeded", "--feature-norm-bound", "1000", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.both());
        String privacy = Files.readString(out.resolve("privacy.txt"));
        assertTrue(privacy.contains("follow the public feature bound ||x|| <= 1000.0") && !privacy.contains("Not accounted"), privacy);
        assertTrue(privacy.contains("Released model: the mean of what the agents last published;"), privacy);
        assertTrue(privacy.contains("WARNING: this epsilon is not a guarantee: dp-pg-extra prices each publication")
                && privacy.contains("each agent's own exact iterate, which enters its every mixing step"), privacy);
        CommandRun tooSmall = CommandRun.of("train", "--algo", "dp-recal", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds",
                "10", "--clip", "1", "--epsilon", "2", "--noise", "seeded", "--feature-norm-bound", "0.001", "--out",
                dir.resolve("small").toString());
        assertTrue(tooSmall.exitCode() != 0 && tooSmall.err().contains("beyond the public bound --feature-norm-bound 0.001")
                && tooSmall.err().contains("raise the bound"), tooSmall.both());
        CommandRun withAlpha = CommandRun.of("train", "--algo", "dp-nids", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds",
                "10", "--clip", "1", "--epsilon", "2", "--alpha", "0.001", "--feature-norm-bound", "1000", "--out",
                dir.resolve("alpha").toString());
        assertTrue(withAlpha.exitCode() != 0 && withAlpha.err().contains("drop --feature-norm-bound"), withAlpha.both());
    }

    @Test
    void savedNodeModelsOfAPrivatePrimalDualRunAreNotCoveredAsReleases(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("nodes");
        CommandRun r = CommandRun.of("train", "--algo", "dp-recal", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds", "40",
                "--clip", "1", "--epsilon", "2", "--noise", "seeded", "--save-node-models", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.both());
        String privacy = Files.readString(out.resolve("privacy.txt"));
        // seeded noise: nothing is covered as a guarantee, and the node files are not even what such a run releases
        assertTrue(privacy.contains("Covers nothing as a guarantee (see the WARNING above); model.zip holds the model")
                && privacy.contains("model-node-<i>.zip (the agents' internal states, which they never publish)")
                && !privacy.contains("and model-node-<i>.zip"), privacy);
        assertTrue(Files.exists(out.resolve("model-node-0.zip")));
        Path secure = dir.resolve("secure");
        CommandRun s = CommandRun.of("train", "--algo", "dp-recal", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds", "40",
                "--clip", "1", "--epsilon", "2", "--feature-norm-bound", "1000", "--save-node-models", "--out", secure.toString());
        assertEquals(0, s.exitCode(), s.both());
        String covered = Files.readString(secure.resolve("privacy.txt"));
        // secure noise, public steps and the drift's pricing: a guarantee for model.zip, not for the agents' internal states
        assertTrue(!covered.contains("WARNING") && covered.contains("Covers: model.zip (the released model)")
                && covered.contains("model-node-<i>.zip (the agents' internal states"), covered);
    }

    @Test
    void theBaselinesAndTheSynchronousIterationTrain(@TempDir Path dir) {
        for (String[] algo : new String[][]{{"recal-sync"}, {"dp-pg-extra", "--clip", "1", "--epsilon", "2", "--noise", "seeded"},
                {"nids"}}) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("train", "--algo"));
            args.addAll(java.util.List.of(algo));
            args.addAll(java.util.List.of("--dataset", "synthetic-lsq", "--nodes", "16", "--rounds", "40", "--out",
                    dir.resolve(algo[0]).toString()));
            CommandRun r = CommandRun.of(args.toArray(String[]::new));
            assertEquals(0, r.exitCode(), algo[0] + ": " + r.both());
        }
    }

    @Test
    void optionsThatDoNotFitAreRefused(@TempDir Path dir) {
        CommandRun noClip = CommandRun.of("train", "--algo", "dp-recal", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds", "10",
                "--epsilon", "1", "--out", dir.resolve("a").toString());
        assertTrue(noClip.exitCode() != 0 && noClip.err().contains("--clip"), noClip.both());
        CommandRun relax = CommandRun.of("train", "--algo", "dp-recal", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds", "10",
                "--clip", "1", "--epsilon", "1", "--theta", "1", "--mu", "0.5", "--out", dir.resolve("b").toString());
        assertTrue(relax.exitCode() != 0 && relax.err().contains("mu = 0 or theta = 2"), relax.both());
        CommandRun lci = CommandRun.of("train", "--algo", "recal", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds", "10",
                "--lci", "5", "--out", dir.resolve("c").toString());
        assertEquals(2, lci.exitCode(), lci.both());
        CommandRun penalty = CommandRun.of("train", "--algo", "recal", "--dataset", "synthetic-lsq", "--nodes", "16", "--rounds", "10",
                "--penalty", "l2:1", "--out", dir.resolve("d").toString());
        assertEquals(2, penalty.exitCode(), penalty.both());
        assertTrue(penalty.err().contains("elastic-net"), penalty.err());
    }
}
