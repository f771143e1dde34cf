package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpdl4j.privacy.accounting.DpSgd;
import org.junit.jupiter.api.Test;

class AccountCommandTest {

    @Test
    void dpSgdGoldenExampleEndsWithBothEpsilons() {
        CommandRun r = CommandRun.of("account", "dp-sgd", "--sample-rate", String.valueOf(256.0 / 60000.0), "--noise-multiplier", "1.1",
                "--steps", "14062", "--delta", "1e-5");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(3.01, r.lastValue(2, "epsilon"), 0.005);
        assertEquals(2.60, r.lastValue(1, "epsilon_improved"), 0.005);
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
}
