package org.dpdl4j.optim;

import java.util.Objects;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.Calibration;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.PoissonSampledEvent;
import org.dpdl4j.privacy.accounting.SampledWithoutReplacementEvent;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.LedgerEntry;
import org.dpdl4j.privacy.ledger.PrivacyLedger;

/**
 * What central DP-SGD will do with its settings on a data set of a given size, known before any data is read: the
 * sampler, the noise multiplier (calibrated to the target epsilon when one is given), the event of one step and the
 * planned number of steps. A {@link PrivateTrainer} runs this plan; tuning prices it without training.
 *
 * @param config        the settings
 * @param sampler       how each step draws its batch (the accounting's neighbouring relation follows it)
 * @param accounting    the accounting the noise was calibrated with, and the trainer's ledger uses
 * @param noiseMultiplier z, the noise std over the clip norm
 * @param stepEvent     one step's privacy event
 * @param plannedSteps  the steps of the planned epochs, in whole {@code fitEpoch()} calls' worth, rounded up
 */
public record DpSgdPlan(DpSgdConfig config, BatchSampler sampler, LedgerAccounting accounting, double noiseMultiplier,
                        DpEvent stepEvent, long plannedSteps) {

    /**
     * The plan of {@code config} on {@code examples} training examples.
     *
     * @throws IllegalArgumentException when the accountant does not support the step's event, or the target cannot be
     *                                  reached by any noise
     */
    public static DpSgdPlan of(DpSgdConfig config, long examples, AccountantFactory accountants) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(accountants, "accountant factory");
        if (examples < 1) {
            throw new IllegalArgumentException("DP-SGD needs at least one training example, got " + examples);
        }
        BatchSampler sampler = config.sampling() == org.dpdl4j.privacy.accounting.SamplingScheme.POISSON
                ? PoissonSampler.withExpectedBatchSize(examples, config.batchSize())
                : new FixedSizeSampler(examples, config.batchSize());
        LedgerAccounting accounting = new LedgerAccounting(accountants, sampler.relation());
        long steps = PrivateTrainer.plannedSteps(config.epochs(), sampler.stepsPerEpoch());
        double z = config.noiseMultiplier();
        if (Double.isNaN(z)) {
            Calibration c = accounting.calibrate(s -> eventPerStep(sampler, s), steps, config.delta(), config.targetEpsilon());
            z = c.noise();
        }
        DpEvent event = eventPerStep(sampler, z);
        accounting.requireSupported(event);
        return new DpSgdPlan(config, sampler, accounting, z, event, steps);
    }

    private static DpEvent eventPerStep(BatchSampler sampler, double noiseMultiplier) {
        GaussianEvent gaussian = new GaussianEvent(noiseMultiplier);
        return sampler instanceof PoissonSampler
                ? new PoissonSampledEvent(sampler.samplingRate(), gaussian)
                : new SampledWithoutReplacementEvent(sampler.datasetSize(), (long) sampler.expectedBatchSize(), gaussian);
    }

    /** How one step's mechanism is described in the ledger. */
    public String mechanism() {
        return "DP-SGD step: " + (sampler instanceof PoissonSampler ? "Poisson-sampled" : "fixed-size batch of")
                + " Gaussian mechanism, per-example clip C = " + config.clipNorm() + ", z = " + noiseMultiplier;
    }

    /** The ledger of the planned steps, as a run that takes them all holds it. */
    public PrivacyLedger plannedLedger(boolean secureNoise) {
        PrivacyLedger planned = new PrivacyLedger();
        planned.add(new LedgerEntry(stepEvent, plannedSteps, LedgerEntry.ALL_PARTIES, mechanism(), secureNoise, 0));
        return planned;
    }

    /** The epsilon of the planned steps at the config's delta (standard conversion). */
    public double plannedEpsilon() {
        return accounting.plannedEpsilon(stepEvent, plannedSteps, config.delta());
    }
}
