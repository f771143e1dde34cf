package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.junit.jupiter.api.Test;

class AccountDecorCommandTest {

    /** {@code dpdl4j account decor ARGS}, in-process. */
    private static CommandRun run(String... args) {
        List<String> all = new ArrayList<>(List.of("account", "decor"));
        all.addAll(List.of(args));
        return CommandRun.of(all.toArray(String[]::new));
    }

    private static List<String> common(String topology, String nodes, String... more) {
        List<String> a = new ArrayList<>(List.of("--topology", topology, "--nodes", nodes, "--clip", "1", "--steps", "3500",
                "--delta", "1e-5"));
        a.addAll(List.of(more));
        return a;
    }

    @Test
    void ringRowOfTheReferenceTable() {
        CommandRun r = run(common("ring", "16", "--sigma-cdp", "17.827099282407094", "--sigma-cor", "188").toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.err());
        double kappa = r.lastValue(5, "kappa");
        double secRdp = r.lastValue(4, "epsilon_secrdp");
        double gaussian = r.lastValue(3, "epsilon_gaussian");
        double eps = r.lastValue(1, "epsilon");
        assertEquals(10.2928, secRdp, 5e-5);
        // the exact curve of the same Gaussian noise (mu^2 = 2 rho) is tighter, and it is the guarantee
        double rho = 3500 * 2 * kappa;
        assertEquals(GaussianPrivacyCurve.epsilon(Math.sqrt(2 * rho), 1e-5), gaussian, 0.0);
        assertTrue(gaussian < secRdp, gaussian + " vs " + secRdp);
        assertEquals(gaussian, eps, 0.0);
        assertTrue(r.lastLines(2).get(0).equals("epsilon_accountant=gaussian"), r.out());
        assertEquals(4.656256603611915e-4, 2 * kappa, 1e-10 * 4.656256603611915e-4);
        assertTrue(r.out().contains("algebraic connectivity a(G) = 0.1522409350"), r.out());
        assertTrue(r.out().contains("exact"), r.out());
        // the lines for people round up: a shown epsilon is never below the bound
        assertTrue(r.out().contains("(epsilon, delta) = (" + EpsilonFormat.upward(secRdp, 6) + ", 1.0E-5)"), r.out());
        assertTrue(r.out().contains("epsilon = " + EpsilonFormat.upward(gaussian, 6) + " (the true epsilon)"), r.out());
    }

    @Test
    void torusAcceptsSquareOrShapeAndCuriousUsersCostMore() {
        CommandRun square = run(common("torus", "16", "--sigma-cdp", "22.96953176771683", "--sigma-cor", "47").toArray(String[]::new));
        CommandRun shaped = run(common("torus", "4x4", "--sigma-cdp", "22.96953176771683", "--sigma-cor", "47").toArray(String[]::new));
        assertEquals(0, square.exitCode(), square.err());
        assertEquals(square.lastLines(1), shaped.lastLines(1));
        assertEquals(10.2369, square.lastValue(4, "epsilon_secrdp"), 5e-5);
        assertTrue(square.lastValue(1, "epsilon") < 10.2369);
        CommandRun curious = run(common("torus", "4x4", "--sigma-cdp", "22.96953176771683", "--sigma-cor", "47", "--adversary", "curious")
                .toArray(String[]::new));
        assertEquals(0, curious.exitCode(), curious.err());
        assertTrue(curious.lastValue(4, "epsilon_secrdp") > 10.2369);
        assertTrue(curious.lastValue(1, "epsilon") > square.lastValue(1, "epsilon"));
        assertTrue(curious.lastValue(1, "epsilon") <= curious.lastValue(4, "epsilon_secrdp"));
        assertTrue(curious.out().contains("colluders ["), curious.out());
    }

    @Test
    void badInputGivesClearErrors() {
        CommandRun torus = run(common("torus", "15", "--sigma-cdp", "1", "--sigma-cor", "1").toArray(String[]::new));
        assertEquals(2, torus.exitCode());
        assertTrue(torus.err().contains("perfect-square") && torus.err().contains("RxC"), torus.err());
        CommandRun missing = run(common("ring", "16", "--sigma-cdp", "1").toArray(String[]::new));
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().contains("--sigma-cor"), missing.err());
        CommandRun adversary = run(common("ring", "16", "--sigma-cdp", "1", "--sigma-cor", "1", "--adversary", "spy").toArray(String[]::new));
        assertEquals(2, adversary.exitCode());
        assertTrue(adversary.err().contains("unknown adversary 'spy'"), adversary.err());
        CommandRun noTarget = run(common("ring", "16", "--calibrate").toArray(String[]::new));
        assertEquals(2, noTarget.exitCode());
        assertTrue(noTarget.err().contains("--epsilon"), noTarget.err());
        CommandRun negative = run(common("ring", "16", "--sigma-cdp", "-1", "--sigma-cor", "1").toArray(String[]::new));
        assertEquals(2, negative.exitCode());
        assertTrue(negative.err().contains("--sigma-cdp") && negative.err().contains("'-1' must be a number > 0"), negative.err());
    }

    @Test
    void manyColludersAreReportedAsAnUpperBound() {
        CommandRun r = run("--topology", "regular:4", "--nodes", "100", "--seed", "3", "--sigma-cdp", "5", "--sigma-cor", "50", "--clip", "1",
                "--steps", "1000", "--delta", "1e-5", "--adversary", "colluding:3");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("upper bound") && r.out().contains("LDP level"), r.out());
        assertEquals(1 / 25.0, r.lastValue(5, "kappa"), 1e-15);
        assertTrue(r.out().contains("an upper bound, from kappa's upper bound"), r.out());
    }

    @Test
    void calibrationPrintsThreeCandidatesAtOrBelowTheTarget() {
        CommandRun r = run(common("ring", "16", "--calibrate", "--epsilon", "10").toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.err());
        Matcher m = Pattern.compile("sigma_cdp=(\\S+) sigma_cor=(\\S+) kappa=\\S+ \\(exact\\) epsilon=(\\S+)").matcher(r.out());
        int found = 0;
        while (m.find()) {
            double eps = Double.parseDouble(m.group(3));
            assertTrue(eps <= 10 && eps >= 10 * (1 - 1e-4), r.out());
            found++;
        }
        assertEquals(3, found, r.out());
        assertTrue(r.out().contains("sigma_ldp = 67.194"), r.out());
    }
}
