package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dpdl4j.optim.BatchSampler;
import org.dpdl4j.optim.PrivateTrainer;
import org.dpdl4j.privacy.accounting.DpSgd;
import org.junit.jupiter.api.Test;

class AccountCommandTest {

    @Test
    void dpSgdGoldenExampleEndsWithBothEpsilons() {
        CommandRun r = CommandRun.of("account", "dp-sgd", "--sample-rate", String.valueOf(256.0 / 60000.0), "--noise-multiplier", "1.1",
                "--steps", "14062", "--delta", "1e-5");
        assertEquals(0, r.exitCode(), r.err());
        // Renyi DP: 3.01 (standard conversion), 2.60 (improved); privacy loss distributions: lower, and the guarantee
        assertEquals(3.01, r.lastValue(6, "epsilon_rdp"), 0.005);
        assertEquals(2.60, r.lastValue(5, "epsilon_rdp_improved"), 0.005);
        double pld = r.lastValue(4, "epsilon_pld");
        assertEquals("epsilon_accountant=pld", r.lastLines(3).get(0));
        assertEquals(pld, r.lastValue(2, "epsilon"), 0.0);
        assertEquals(pld, r.lastValue(1, "epsilon_improved"), 0.0);
        assertTrue(pld < 2.5, "PLD " + pld);
        assertTrue(r.out().contains("Privacy statement") && r.out().contains("Poisson"), r.out());
    }

    @Test
    void calibrateEndsWithTheSmallestNoiseThatMeetsTheTarget() {
        CommandRun r = CommandRun.of("account", "calibrate", "--target-epsilon", "2", "--delta", "1e-5", "--sample-rate", "0.01",
                "--steps", "1000");
        assertEquals(0, r.exitCode(), r.err());
        double z = r.lastValue(1, "noise_multiplier");
        assertTrue(DpSgd.accountant(0.01, z, 1000).epsilon(1e-5) <= 2.0);
        assertTrue(DpSgd.accountant(0.01, 0.999 * z, 1000).epsilon(1e-5) > 2.0);
        // Renyi DP alone needs more noise for the same target, and --accountant rdp gives exactly that noise
        double zRdp = r.lastValue(2, "noise_multiplier_rdp");
        assertTrue(zRdp > z && DpSgd.rdpAccountant(0.01, zRdp, 1000).epsilon(1e-5) <= 2.0, z + " vs " + zRdp);
        CommandRun rdp = CommandRun.of("account", "calibrate", "--target-epsilon", "2", "--delta", "1e-5", "--sample-rate", "0.01",
                "--steps", "1000", "--accountant", "rdp");
        assertEquals(zRdp, rdp.lastValue(1, "noise_multiplier"), 0.0);
        CommandRun unknown = CommandRun.of("account", "calibrate", "--target-epsilon", "2", "--delta", "1e-5", "--sample-rate", "0.01",
                "--steps", "1000", "--accountant", "moments");
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.err().contains("unknown accountant 'moments'; use one of tightest, rdp, additive"), unknown.err());
    }

    @Test
    void badArgumentsExitWithUsageErrorAndAClearMessage() {
        String[][] cases = {
                {"--sample-rate", "0", "--sample-rate must lie in (0, 1]"},
                {"--sample-rate", "1.5", "--sample-rate must lie in (0, 1]"},
                {"--steps", "0", "'0' must be a whole number >= 1"},
                {"--delta", "1", "'1' must be a number strictly between 0 and 1"},
                {"--delta", "0", "'0' must be a number strictly between 0 and 1"},
        };
        for (String[] c : cases) {
            String q = c[0].equals("--sample-rate") ? c[1] : "0.01";
            String steps = c[0].equals("--steps") ? c[1] : "100";
            String delta = c[0].equals("--delta") ? c[1] : "1e-5";
            CommandRun dpSgd = CommandRun.of("account", "dp-sgd", "--sample-rate", q, "--noise-multiplier", "1", "--steps", steps,
                    "--delta", delta);
            assertEquals(2, dpSgd.exitCode(), c[0] + "=" + c[1]);
            assertTrue(dpSgd.err().contains(c[2]), dpSgd.err());
            CommandRun calibrate = CommandRun.of("account", "calibrate", "--target-epsilon", "1", "--sample-rate", q, "--steps", steps,
                    "--delta", delta);
            assertEquals(2, calibrate.exitCode(), c[0] + "=" + c[1]);
            assertTrue(calibrate.err().contains(c[2]), calibrate.err());
        }
        CommandRun target = CommandRun.of("account", "calibrate", "--target-epsilon", "0", "--sample-rate", "0.01", "--steps", "10",
                "--delta", "1e-5");
        assertEquals(2, target.exitCode());
        assertTrue(target.err().contains("--target-epsilon must be a positive finite number"), target.err());
        CommandRun missing = CommandRun.of("account", "dp-sgd", "--sample-rate", "0.01");
        assertEquals(2, missing.exitCode());
        assertEquals(2, CommandRun.of("account").exitCode());
    }

    @Test
    void batchSizeDatasetSizeAndEpochsGiveTheSameEpsilonAsTheRateAndStepsTheyFollowFrom() {
        CommandRun epochs = CommandRun.of("account", "dp-sgd", "--batch-size", "250", "--dataset-size", "60000", "--epochs", "3",
                "--noise-multiplier", "1.1", "--delta", "1e-5");
        CommandRun rate = CommandRun.of("account", "dp-sgd", "--sample-rate", String.valueOf(250.0 / 60000), "--steps", "720",
                "--noise-multiplier", "1.1", "--delta", "1e-5");
        assertEquals(0, epochs.exitCode(), epochs.err());
        assertEquals(0, rate.exitCode(), rate.err());
        assertEquals(rate.lastLines(2), epochs.lastLines(2));
        assertTrue(epochs.out().startsWith("Schedule: q = B / N = 250 / 60000 = 0.00416667; T = ceil(E x round(N / B))"
                + " = ceil(3 x 240) = 720 steps"), epochs.out());
        assertFalse(rate.out().contains("Schedule:"), rate.out());
    }

    @Test
    void stepsFromEpochsAreRoundedAsATrainingRunPlansThem() {
        // 60000 / 256 = 234.375 steps an epoch: a run takes 234 per epoch, so 20 epochs are 4680 steps (not 4688).
        CommandRun r = CommandRun.of("account", "calibrate", "--target-epsilon", "2", "--delta", "1e-5", "--batch-size", "256",
                "--dataset-size", "60000", "--epochs", "20");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(PrivateTrainer.plannedSteps(20, BatchSampler.stepsPerEpoch(256.0 / 60000)), 4680);
        assertTrue(r.out().contains("= ceil(20 x 234) = 4680 steps"), r.out());
        double z = r.lastValue(1, "noise_multiplier");
        assertTrue(DpSgd.accountant(256.0 / 60000, z, 4680).epsilon(1e-5) <= 2.0);
        CommandRun half = CommandRun.of("account", "dp-sgd", "--batch-size", "256", "--dataset-size", "60000", "--epochs", "0.5",
                "--noise-multiplier", "1", "--delta", "1e-5");
        assertTrue(half.out().contains("= ceil(0.5 x 234) = 117 steps"), half.out());
    }

    @Test
    void theTwoFormsOfTheSamplingAreExclusiveAndEachIsComplete() {
        String[][] cases = {
                {"--sample-rate 0.01 --steps 100 --epochs 2", "--sample-rate and --steps cannot be combined with --epochs"},
                {"--batch-size 256", "--batch-size also needs --dataset-size and --epochs"},
                {"--steps 100", "--steps also needs --sample-rate"},
                {"", "no sampling given: give the sampling either as --sample-rate Q with --steps T, or as --batch-size B,"
                        + " --dataset-size N and --epochs E"},
                {"--batch-size 300 --dataset-size 200 --epochs 1", "--batch-size 300 is larger than --dataset-size 200"},
                {"--batch-size 0 --dataset-size 200 --epochs 1", "'0' must be a whole number >= 1"},
                {"--batch-size 10 --dataset-size 200 --epochs -1", "must be a number > 0"},
        };
        for (String[] c : cases) {
            for (String command : new String[] {"dp-sgd --noise-multiplier 1", "calibrate --target-epsilon 1"}) {
                List<String> args = new ArrayList<>(List.of("account"));
                args.addAll(List.of(command.split(" ")));
                args.addAll(List.of("--delta", "1e-5"));
                if (!c[0].isEmpty()) {
                    args.addAll(List.of(c[0].split(" ")));
                }
                CommandRun r = CommandRun.of(args.toArray(String[]::new));
                assertEquals(2, r.exitCode(), String.join(" ", args) + "\n" + r.both());
                assertTrue(r.err().contains(c[1]), String.join(" ", args) + "\n" + r.err());
            }
        }
    }
}
