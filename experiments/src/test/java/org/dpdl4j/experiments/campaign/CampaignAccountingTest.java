package org.dpdl4j.experiments.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dpdl4j.attacks.observe.CampaignSettings;
import org.dpdl4j.attacks.observe.DeclaredObserverRun;
import org.dpdl4j.attacks.observe.ProtocolScenario;
import org.dpdl4j.attacks.observe.RunWorkload;
import org.dpdl4j.attacks.observe.ScenarioRun;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.junit.jupiter.api.Test;

/**
 * A campaign's accountant reaches every private run's calibration. Each library run whose rounds are unsampled Gaussian
 * releases draws more noise for the same epsilon when priced by Renyi DP alone than by the tightest bound (the exact
 * curve is never looser); the runs that draw a fixed-size batch without replacement have no analysis but Renyi DP's, so
 * both pricings give them the same noise. Every private run's ledger is priced by the campaign's accountant. A report
 * made with {@code --accountant rdp} is thus the one an earlier,
 * Renyi-priced report was.
 */
class CampaignAccountingTest {
    private static final Pattern FIRST_NUMBER = Pattern.compile("= ([0-9][0-9.]*(?:e[+-]?[0-9]+)?)");
    /** The runs whose rounds sample a fixed-size batch without replacement (priced by Renyi DP under either name). */
    private static final List<String> SAMPLED_WITHOUT_REPLACEMENT = List.of("dp-sgd", "decor", "ldp", "cdp");

    @Test
    void everyPrivateLibraryRunIsCalibratedByTheCampaignsAccountant() {
        RunWorkload tightest = SmallWorkloads.fullMnist(50, new int[] {0}, 1);
        assertEquals(AccountantFactory.TIGHTEST, tightest.settings().accountant(), "the default");
        RunWorkload rdp = new RunWorkload(tightest.train(), tightest.test(), tightest.targets(), tightest.shape(),
                tightest.settings().withAccountant(AccountantFactory.RDP));
        List<String> checked = new ArrayList<>();
        for (ProtocolScenario run : CampaignProtocols.all()) {
            if (!run.isPrivate() || run instanceof DeclaredObserverRun) {
                continue;
            }
            java.util.Map<String, String> byTightest = run.run(tightest, 1.0).calibration();
            java.util.Map<String, String> byRenyi = run.run(rdp, 1.0).calibration();
            assertEquals(AccountantFactory.TIGHTEST, byTightest.get(ScenarioRun.LEDGER_PRICING), run.algorithm());
            assertEquals(AccountantFactory.RDP, byRenyi.get(ScenarioRun.LEDGER_PRICING), run.algorithm()
                    + ": the ledger is priced by the accountant the noise was calibrated to");
            double least = noise(byTightest.get("noise"));
            double renyi = noise(byRenyi.get("noise"));
            if (SAMPLED_WITHOUT_REPLACEMENT.contains(run.algorithm())) {
                assertEquals(least, renyi, 0.0, run.algorithm() + ": only Renyi DP prices sampling without replacement");
            } else {
                assertTrue(renyi > least * 1.001, run.algorithm() + ": Renyi DP alone calibrates " + renyi
                        + ", the tightest bound " + least + "; the campaign's accountant did not reach the calibration");
            }
            checked.add(run.algorithm());
        }
        assertEquals(List.of("dp-sgd", "decor", "ldp", "cdp", "dp-fedavg-local", "dp-fedavg-central", "gopa",
                "mu2-untrusted", "mu2-trusted", "dp-recal", "random-walk"), checked);
    }

    @Test
    void anUnknownAccountantIsRefusedNamingTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CampaignSettings.defaults().withAccountant("moments"));
        assertTrue(e.getMessage().contains("unknown accountant 'moments'") && e.getMessage().contains("rdp"),
                e.getMessage());
    }

    /** The noise level a run's calibration names first (z, sigma_cdp, sigma_eta, sigma or sigma_0). */
    private static double noise(String text) {
        Matcher m = FIRST_NUMBER.matcher(text);
        assertTrue(m.find(), "no noise level in '" + text + "'");
        return Double.parseDouble(m.group(1));
    }
}
