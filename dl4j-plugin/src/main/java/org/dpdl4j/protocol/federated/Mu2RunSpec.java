package org.dpdl4j.protocol.federated;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.PartySource;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * The one description of a DP-mu^2-FL run (or non-private mu^2-SGD) apart from its network: what its problem
 * constants, target and machines resolve to ({@link Mu2Setup}: the rounds, the step size, the calibrated noise and
 * the accounting), the machines' data, where the run starts, and how its ledger is kept.
 *
 * @param setup       the run's configuration and accounting
 * @param data        where the machines' data comes from
 * @param machines    M
 * @param start       {@code zero} (the origin, for convex models) or {@code model} (the network's initialisation)
 * @param noise       where the noise comes from
 * @param budget      the epsilon budget, NaN for the target (or none)
 * @param accountants the ledger's accountant
 */
public record Mu2RunSpec(Mu2Setup setup, PartySource data, int machines, String start, NoiseKind noise, double budget,
                         AccountantFactory accountants) {
    public Mu2RunSpec {
        Objects.requireNonNull(setup, "setup");
        Objects.requireNonNull(data, "machines' data");
        Objects.requireNonNull(noise, "noise kind");
        Objects.requireNonNull(accountants, "accountants");
        if (!start.equals("zero") && !start.equals("model")) {
            throw new IllegalArgumentException("the starting point is zero or model, got " + start);
        }
    }

    /**
     * The run on {@code template} (its parameters the start unless it starts at zero).
     *
     * @param recorded the settings recorded with the run (in its checkpoint)
     */
    public Mu2Trainer create(MultiLayerNetwork template, RunSettings recorded) {
        PartySource.Local local = data.local(machines, setup.config().seed());
        if (start.equals("zero")) {
            template.params().assign(0);
        }
        Mu2Trainer trainer = setup.trainer(template, local.data(), noise, budget, accountants,
                recorded != null ? recorded : RunSettings.empty());
        trainer.describeSetup(setup, start, local.report());
        return trainer;
    }
}
