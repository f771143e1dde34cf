package org.dpdl4j.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.protocol.federated.FedAvgPrivacy;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.protocol.federated.ClientSampling;
import org.dpdl4j.protocol.recal.DecayingNoisePrivacy;
import org.dpdl4j.runtime.CheckpointException;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.dpdl4j.runtime.ResumePolicy;
import org.dpdl4j.runtime.RunCheckpoint;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --accountant} reaches every private protocol: its calibration and its ledger use the named pricing, the
 * planned ledger is priced as the built run prices it, a calibrated run never reports more than its target, and a
 * checkpoint priced by another accountant is refused on resume.
 */
class AccountantChoiceTest {
    private static final List<String> PRICINGS = AccountantFactory.NAMES;

    /** Every private protocol of the registry reads --accountant. */
    @Test
    void everyPrivateProtocolReadsTheAccountant() {
        ProtocolRegistry registry = ProtocolRegistry.standard();
        for (String name : registry.names()) {
            Protocol p = registry.get(name);
            if (p.isPrivate()) {
                assertTrue(p.options().contains(RunOptions.ACCOUNTANT), name + " does not read --accountant");
            }
        }
    }

    @Test
    void anUnknownAccountantIsRefusedWithTheKnownOnes() {
        Protocol gopa = ProtocolRegistry.standard().get("gopa");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RunOptions.accountants(PlannedLedgerTest.settings(gopa, "accountant pld")));
        for (String known : PRICINGS) {
            assertTrue(e.getMessage().contains(known), e.getMessage());
        }
    }

    /** Runs with a given noise: the same mechanism, priced by each accountant. */
    static Stream<Arguments> givenNoise() {
        return Stream.of(
                Arguments.of("dp-fedavg-local", "machines 4 rounds 3 lr 0.1 clip 1 noise-multiplier 3"),
                Arguments.of("dp-fedavg-central", "machines 8 rounds 3 lr 0.1 clip 1 noise-multiplier 1 client-rate 0.5"),
                Arguments.of("gopa", "machines 6 rounds 3 lr 0.1 clip 1 noise-multiplier 2 pairwise-multiplier 5 gopa-k 2"),
                Arguments.of("mu2-untrusted", "machines 4 rounds 5 noise-multiplier 3"),
                Arguments.of("mu2-trusted", "machines 3 noise-multiplier 1 lipschitz 2 smoothness 1"));
    }

    /**
     * Renyi DP alone never reports less than the additive bounds, which never report less than the tightest; the
     * planned ledger is priced by the named accountant exactly as the built run prices it.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("givenNoise")
    void theNamedAccountantPricesTheRunAndItsPlan(String name, String options) {
        double tightest = spentByPlan(name, options, AccountantFactory.TIGHTEST);
        double additive = spentByPlan(name, options, AccountantFactory.ADDITIVE);
        double rdp = spentByPlan(name, options, AccountantFactory.RDP);
        assertTrue(tightest <= additive && additive <= rdp, tightest + " <= " + additive + " <= " + rdp);
    }

    /** Runs calibrated to epsilon = 2. */
    static Stream<Arguments> calibrated() {
        return Stream.of(
                Arguments.of("dp-fedavg-local", "machines 4 rounds 3 lr 0.1 clip 1 epsilon 2"),
                Arguments.of("dp-fedavg-central", "machines 8 rounds 3 lr 0.1 clip 1 epsilon 2 client-rate 0.5"),
                Arguments.of("gopa", "machines 6 rounds 3 lr 0.1 clip 1 epsilon 2 gopa-k 2"),
                Arguments.of("mu2-untrusted", "machines 4 rounds 5 epsilon 2"),
                Arguments.of("mu2-trusted", "machines 3 epsilon 2 lipschitz 2 smoothness 1"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("calibrated")
    void aCalibratedRunNeverReportsMoreThanItsTarget(String name, String options) {
        for (String pricing : PRICINGS) {
            double spent = spentByPlan(name, options, pricing);
            assertTrue(spent <= 2.0 && spent > 0, name + " with --accountant " + pricing + " reports " + spent);
        }
    }

    /** DP-FedAvg with local noise: each accountant's calibration meets the target as that accountant prices it, closely. */
    @Test
    void localDpFedAvgIsCalibratedToTheNamedAccountant() {
        double tightest = FedAvgPrivacy.calibrate(FedAvgVariant.DP_LOCAL, new ClientSampling.Everyone(), 4, 50, 2, 1e-5);
        for (String pricing : PRICINGS) {
            AccountantFactory accountants = AccountantFactory.named(pricing);
            double z = FedAvgPrivacy.calibrate(FedAvgVariant.DP_LOCAL, new ClientSampling.Everyone(), 4, 50, 2, 1e-5, accountants);
            double eps = new LedgerAccounting(accountants, NeighbouringRelation.REPLACE_ONE)
                    .plannedEpsilon(new org.dpdl4j.privacy.accounting.GaussianEvent(z), 50, 1e-5);
            assertTrue(eps <= 2 && eps > 2 - 1e-6, pricing + ": " + eps);
            assertTrue(z >= tightest, pricing + " needs at least the tightest accountant's noise");
        }
        assertEquals(tightest, FedAvgPrivacy.calibrate(FedAvgVariant.DP_LOCAL, new ClientSampling.Everyone(), 4, 50, 2, 1e-5,
                AccountantFactory.standard()), 0.0, "the default is unchanged");
    }

    /** RECAL's Gaussian publications: each accountant's ledger of the calibrated run stays within the target. */
    @Test
    void recalCalibrationMeetsTheTargetUnderEveryAccountant() {
        for (String pricing : PRICINGS) {
            AccountantFactory accountants = AccountantFactory.named(pricing);
            double sigma = DecayingNoisePrivacy.calibrate(0.3, 0.99, 200, 2, 1e-5, accountants);
            DecayingNoisePrivacy privacy = new DecayingNoisePrivacy(new double[]{0.3}, new double[]{sigma}, 0.99);
            org.dpdl4j.privacy.ledger.PrivacyLedger plan = new org.dpdl4j.privacy.ledger.PrivacyLedger();
            for (long m = 1; m <= 200; m++) {
                plan.add(new org.dpdl4j.privacy.ledger.LedgerEntry(privacy.publication(0, m), 1,
                        org.dpdl4j.privacy.ledger.LedgerEntry.ALL_PARTIES, "plan", true, 0));
            }
            double eps = new LedgerAccounting(accountants, NeighbouringRelation.REPLACE_ONE).bound(plan, 1e-5, Conversion.STANDARD)
                    .epsilon();
            assertTrue(eps <= 2 && eps > 2 - 1e-6, pricing + ": " + eps);
        }
    }

    /** A checkpoint of a run priced by Renyi DP resumes only into a run priced the same way. */
    @Test
    void aCheckpointPricedByAnotherAccountantIsRefused(@TempDir Path dir) throws Exception {
        Protocol protocol = ProtocolRegistry.standard().get("dp-fedavg-local");
        String options = "machines 4 rounds 3 lr 0.1 clip 1 noise-multiplier 3 seed 7 noise seeded";
        RunInputs inputs = PlannedLedgerTest.inputs(new PlannedLedgerTest.SoftmaxRegression());
        Path file = dir.resolve("run.ckpt");
        try (TrainingRun run = protocol.create(PlannedLedgerTest.settings(protocol, options + " accountant rdp"), inputs)) {
            run.step();
            RunCheckpoint.save(run, file);
        }
        RunCheckpoint.Saved saved = RunCheckpoint.read(file);
        assertEquals(AccountantFactory.RDP, saved.ledger().orElseThrow().accountant());
        try (TrainingRun repriced = protocol.create(PlannedLedgerTest.settings(protocol, options), inputs)) {
            CheckpointException e = assertThrows(CheckpointException.class,
                    () -> RunCheckpoint.resume(repriced, saved, ResumePolicy.strict()));
            assertTrue(e.getMessage().contains("accountant") && e.getMessage().contains("rdp"), e.getMessage());
            assertEquals(0, repriced.completedSteps());
        }
        try (TrainingRun same = protocol.create(PlannedLedgerTest.settings(protocol, options + " accountant rdp"), inputs)) {
            RunCheckpoint.resume(same, saved, ResumePolicy.strict());
            assertEquals(1, same.completedSteps());
        }
    }

    /** The epsilon of the planned ledger as the built run's accounting prices it, checked against the planned pricing. */
    private static double spentByPlan(String name, String options, String pricing) {
        Protocol protocol = ProtocolRegistry.standard().get(name);
        RunSettings s = PlannedLedgerTest.settings(protocol, options + " seed 7 noise seeded accountant " + pricing);
        RunInputs inputs = PlannedLedgerTest.inputs(new PlannedLedgerTest.SoftmaxRegression());
        PlannedLedger priced = protocol.plannedLedger(s, inputs).orElseThrow();
        try (TrainingRun run = protocol.create(s, inputs)) {
            RunLedger ledger = run.ledger().orElseThrow();
            assertEquals(pricing, ledger.accounting().method(), "the run is priced by the named accountant");
            double delta = ledger.budget().delta();
            double built = ledger.accounting().bound(run.plannedLedger().orElseThrow(), delta, Conversion.STANDARD).epsilon();
            double planned = new LedgerAccounting(RunOptions.accountants(s), priced.relation()).bound(priced.ledger(), delta,
                    Conversion.STANDARD).epsilon();
            assertEquals(built, planned, 0.0, "the plan is priced as the built run prices it");
            return built;
        }
    }
}
