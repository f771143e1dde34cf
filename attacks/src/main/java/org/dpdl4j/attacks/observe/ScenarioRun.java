package org.dpdl4j.attacks.observe;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.runtime.TrainingRun;

/**
 * The attack cases one tapped protocol run produced, with what its noise calibration assumed.
 *
 * @param algorithm   the protocol, e.g. {@code decor}
 * @param epsilon     the epsilon its noise was calibrated to ({@code +Infinity}: the non-private protocol)
 * @param cases       one case per observer and attacked target
 * @param calibration what the calibration assumed and gave (accounting, unit, rounds, noise, and under
 *                    {@link #LEDGER_PRICING} the accountant that priced the run's ledger), for reports
 */
public record ScenarioRun(String algorithm, double epsilon, List<AttackCase> cases, Map<String, String> calibration) {
    /** The calibration entry naming the accountant that priced a private run's ledger. */
    public static final String LEDGER_PRICING = "ledger pricing";

    public ScenarioRun {
        Objects.requireNonNull(algorithm, "algorithm must not be null");
        cases = List.copyOf(cases);
        calibration = Map.copyOf(calibration);
    }

    /** The name of the accountant pricing {@code run}'s ledger ({@code none} for a run without one). */
    public static String ledgerPricing(TrainingRun run) {
        return run.ledger().map(l -> l.accounting().method()).orElse("none");
    }
}
