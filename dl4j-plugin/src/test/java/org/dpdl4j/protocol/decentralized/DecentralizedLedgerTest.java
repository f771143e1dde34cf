package org.dpdl4j.protocol.decentralized;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.CorrelatedGaussianEvent;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.PoissonSampledEvent;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.privacy.ledger.LedgerEntry;
import org.dpdl4j.privacy.ledger.PrivacyBudgetExceededException;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.federated.FederatedFixtures;
import org.dpdl4j.runtime.CheckpointException;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.ResumePolicy;
import org.dpdl4j.runtime.ResumeReport;
import org.dpdl4j.runtime.RunAssertions;
import org.dpdl4j.runtime.RunCheckpoint;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.ndarray.INDArray;

/** The ledger of decentralized runs: budget stops, honest resumes under changed settings, exact resumes. */
class DecentralizedLedgerTest {
    private static final int N = 8;
    private static final int D = 5;
    private static final double DELTA = 1e-5;
    private static final Graph RING = Topologies.ring(N);
    private static final List<NodeData> USERS = DecentralizedFixtures.data(N, D, 3);

    /** Decor on the synthetic least-squares task, user level: every round releases each user's clipped gradient. */
    private static DecentralizedRunBuilder decor(long rounds) {
        return DecentralizedTrainer.builder().algorithm(DecentralizedAlgorithm.DECOR).model(DecentralizedFixtures.leastSquares(D))
                .graph(RING).nodeData(USERS).unit(ProtectedUnit.USER).objective(LocalObjective.SUM).clip(1.0)
                .sampling(SamplingScheme.FULL_BATCH).learningRate(new LearningRate.Constant(1.668e-3)).rounds(rounds)
                .noiseKind(NoiseKind.SEEDED).seed(7);
    }

    /** What the user gave: a target of epsilon = 5 reached after {@code rounds} rounds. */
    private static RunSettings targetSettings(long rounds) {
        return RunSettings.empty().with(RunOptions.SEED, 7L).with(RunOptions.ROUNDS, rounds).with(RunOptions.EPSILON, 5.0)
                .with(RunOptions.NOISE, org.dpdl4j.privacy.noise.NoiseKind.SEEDED).with(DecentralizedOptions.UNIT, "user");
    }

    private static DecentralizedTrainer calibrated(long rounds, RunSettings settings) {
        return decor(rounds).target(5, DELTA).settings(settings).build();
    }

    /** rho of one round: Decor's round is a Gaussian mechanism with multiplier 1 / (C sqrt(kappa)), replace-one. */
    private static double rhoOfRound(DpEvent round) {
        double z = ((CorrelatedGaussianEvent) round).toGaussian().noiseMultiplier();
        return 2.0 / (z * z);
    }

    @Test
    void resumingUnderMoreRoundsIsRefusedUnlessAllowedAndThenComposesBothSegments(@TempDir Path dir) {
        Path file = dir.resolve("decor.ckpt");
        double rho200;
        try (DecentralizedTrainer first = calibrated(200, targetSettings(200))) {
            first.runToEnd();
            assertEquals(200, first.completedSteps());
            assertTrue(first.epsilon() <= 5 && first.epsilon() > 4.99, "calibrated to the target: " + first.epsilon());
            rho200 = rhoOfRound(first.privacy().perRound());
            RunCheckpoint.save(first, file);
        }
        try (DecentralizedTrainer sameSettings = calibrated(200, targetSettings(200))) {
            CheckpointException finished = assertThrows(CheckpointException.class,
                    () -> RunCheckpoint.resume(sameSettings, RunCheckpoint.read(file), ResumePolicy.allowingChanges()));
            assertTrue(finished.getMessage().contains("finished"), finished.getMessage());
        }
        try (DecentralizedTrainer longer = calibrated(400, targetSettings(400))) {
            CheckpointException strict = assertThrows(CheckpointException.class,
                    () -> RunCheckpoint.resume(longer, RunCheckpoint.read(file), ResumePolicy.strict()));
            assertTrue(strict.getMessage().contains("rounds: 200 -> 400"), strict.getMessage());
            assertEquals(0, longer.completedSteps(), "nothing restored");
            // Allowed, the run continues the saved ledger, which has already spent the target: the budget (the
            // target, by default) refuses the very first new round instead of starting a fresh composition.
            RunCheckpoint.resume(longer, RunCheckpoint.read(file), ResumePolicy.allowingChanges());
            PrivacyBudgetExceededException stop = assertThrows(PrivacyBudgetExceededException.class, longer::step);
            assertEquals(200, stop.stepsDone());
        }
        RunSettings withBudget = targetSettings(400).with(RunOptions.EPSILON_BUDGET, 7.0);
        try (DecentralizedTrainer longer = decor(400).target(5, DELTA).budget(7).settings(withBudget).build()) {
            double rho400 = rhoOfRound(longer.privacy().perRound());
            assertTrue(rho400 < rho200, "400 planned rounds take more noise per round");
            ResumeReport report = RunCheckpoint.resume(longer, RunCheckpoint.read(file), ResumePolicy.allowingChanges());
            assertTrue(report.newSegment());
            assertEquals(List.of("rounds: 200 -> 400", "epsilon-budget: (not set) -> 7"),
                    report.changes().stream().map(c -> c.describe()).toList());
            longer.runToEnd();
            assertEquals(400, longer.completedSteps());
            PrivacyLedger ledger = longer.ledger().orElseThrow().ledger();
            assertEquals(2, ledger.entries().size());
            LedgerEntry before = ledger.entries().get(0);
            LedgerEntry after = ledger.entries().get(1);
            assertEquals(List.of(0, 1), List.of(before.segment(), after.segment()));
            assertEquals(List.of(200L, 200L), List.of(before.count(), after.count()));
            // 200 rounds at the 200-round calibration, then 200 at the 400-round one: Gaussian rounds, whose mu^2 = 2 rho adds
            // up, priced by the exact Gaussian curve (the default accounting).
            double expected = GaussianPrivacyCurve.epsilon(Math.sqrt(2 * (200 * rho200 + 200 * rho400)), DELTA);
            assertEquals(expected, longer.epsilon(), 1e-9 * expected);
            // Each calibration spends mu(5)^2 over its own plan: 1.5 mu(5)^2 in all, about 6.347 (zCDP, calibrating and pricing, gave 6.245).
            assertEquals(GaussianPrivacyCurve.epsilon(Math.sqrt(1.5) * GaussianPrivacyCurve.mu(5, DELTA), DELTA), expected, 1e-3);
            assertEquals(6.347, longer.epsilon(), 0.02);
            assertTrue(longer.epsilon() < ZCdp.epsilon(200 * rho200 + 200 * rho400, DELTA));
            assertTrue(longer.privacyStatement().contains("resumed under changed settings"), longer.privacyStatement());
        }
    }

    @Test
    void aResumeNeverChangesTheAdversaryOrTheReferenceMode(@TempDir Path dir) {
        Path file = dir.resolve("decor.ckpt");
        Path library = dir.resolve("library.ckpt");
        try (DecentralizedTrainer first = calibrated(200, targetSettings(200));
             DecentralizedTrainer fromLibrary = decor(200).target(5, DELTA).build()) {
            for (int t = 0; t < 50; t++) {
                first.step();
                fromLibrary.step();
            }
            RunCheckpoint.save(first, file);
            RunCheckpoint.save(fromLibrary, library);
        }
        // Rounds priced against an eavesdropper do not bound what a curious node learns, and rounds of the reference
        // code's mode are not covered at all: neither composes with the saved ledger, even when changes are allowed,
        // whether the run was built from a command line's settings or by the library (whose checkpoint records them).
        Adversary curious = Adversary.parse("curious");
        List<java.util.function.Supplier<DecentralizedTrainer>> others = List.of(
                () -> decor(200).adversary(curious).target(5, DELTA)
                        .settings(targetSettings(200).with(DecentralizedOptions.ADVERSARY, "curious")).build(),
                () -> decor(200).compatibility(DecorCompatibility.REFERENCE_CODE).target(5, DELTA)
                        .settings(targetSettings(200).with(DecentralizedOptions.REFERENCE_COMPAT, true)).build());
        for (java.util.function.Supplier<DecentralizedTrainer> other : others) {
            try (DecentralizedTrainer resumed = other.get()) {
                CheckpointException e = assertThrows(CheckpointException.class,
                        () -> RunCheckpoint.resume(resumed, RunCheckpoint.read(file), ResumePolicy.allowingChanges()));
                assertTrue(e.getMessage().contains("belongs to another run"), e.getMessage());
                assertEquals(0, resumed.completedSteps());
            }
        }
        for (DecentralizedRunBuilder other : List.of(decor(200).adversary(curious).target(5, DELTA),
                decor(200).compatibility(DecorCompatibility.REFERENCE_CODE).target(5, DELTA))) {
            try (DecentralizedTrainer resumed = other.build()) {
                CheckpointException e = assertThrows(CheckpointException.class,
                        () -> RunCheckpoint.resume(resumed, RunCheckpoint.read(library), ResumePolicy.allowingChanges()));
                assertTrue(e.getMessage().contains("belongs to another run"), e.getMessage());
            }
        }
        // Naming the default adversary is no change of adversary: allowed as a change of settings.
        try (DecentralizedTrainer same = calibrated(200, targetSettings(200).with(DecentralizedOptions.ADVERSARY, "eavesdropper"))) {
            RunCheckpoint.resume(same, RunCheckpoint.read(file), ResumePolicy.allowingChanges());
            assertEquals(50, same.completedSteps());
        }
    }

    @Test
    void referenceCodeCompatibilityMarksTheLedgerAsNotAGuarantee() {
        try (DecentralizedTrainer compat = decor(20).compatibility(DecorCompatibility.REFERENCE_CODE).target(5, DELTA).build();
             DecentralizedTrainer plain = decor(20).target(5, DELTA).build()) {
            assertTrue(compat.ledger().orElseThrow().notAGuarantee().orElseThrow().contains("not the analysed algorithm"));
            String statement = compat.privacyStatement();
            assertTrue(statement.contains("WARNING: this epsilon is not a guarantee: reference-code compatibility is on"), statement);
            assertTrue(plain.ledger().orElseThrow().notAGuarantee().isEmpty());
        }
    }

    @Test
    void theBudgetStopsARunWithGivenNoiseBeforeItIsExceeded() {
        DecentralizedRunBuilder given = decor(100).noise(2.0, 5.0);
        double[] planned = new double[2];
        try (DecentralizedTrainer probe = given.build()) {
            planned[0] = probe.privacy().plannedEpsilon(6, DELTA);
            planned[1] = probe.privacy().plannedEpsilon(7, DELTA);
        }
        try (DecentralizedTrainer run = decor(100).noise(2.0, 5.0).budget(RunAssertions.between(planned[0], planned[1])).build()) {
            PrivacyBudgetExceededException stop = RunAssertions.assertStopsAtBudget(run, 6);
            assertEquals(planned[0], run.epsilon(), 0.0);
            assertEquals(planned[1], stop.epsilonNext(), 0.0);
        }
    }

    /** Small "images": 16 pixels in [0, 1], ten classes, {@code perNode} examples on each of four nodes. */
    private static List<NodeData> pixels(int perNode) {
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            INDArray x = FederatedFixtures.gaussian(40 + i, perNode, 16);
            out.add(new NodeData(x.subi(x.minNumber()).divi(x.maxNumber()), FederatedFixtures.oneHot(50 + i, perNode, 10)));
        }
        return out;
    }

    @Test
    void anExampleLevelPoissonRunWithAnMlpResumesExactly(@TempDir Path dir) {
        List<NodeData> data = pixels(40);
        DecentralizedRunBuilder builder = DecentralizedTrainer.builder().algorithm(DecentralizedAlgorithm.DECOR)
                .model(FederatedFixtures.mlp(16, 8, 10, 5)).graph(Topologies.ring(4)).nodeData(data).unit(ProtectedUnit.EXAMPLE)
                .clip(1.0).batchSize(5).sampling(SamplingScheme.POISSON).learningRate(new LearningRate.Constant(0.2))
                .rounds(12).noise(0.5, 2.0).noiseKind(NoiseKind.SEEDED).seed(3);
        try (DecentralizedTrainer probe = builder.build()) {
            assertEquals(NeighbouringRelation.ADD_OR_REMOVE_ONE, probe.privacy().relation());
            PoissonSampledEvent round = (PoissonSampledEvent) probe.privacy().perRound();
            assertEquals(5.0 / 40, round.samplingProbability(), 0.0);
        }
        RunAssertions.assertResumeEqualsUninterrupted(builder::build, 5, 12, dir.resolve("mlp.ckpt"));
    }
}
