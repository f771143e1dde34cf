package org.dpdl4j.protocol.federated.verification;

import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.federated.FedAvgTrainer;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.protocol.federated.FederatedFixtures;
import org.dpdl4j.protocol.federated.VerificationLog;
import org.dpdl4j.runtime.LearningRate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** train --algo gopa --verify: honest runs unchanged, each lie caught and its author excluded and named, drop-outs survived. */
class GopaVerifiedTrainingTest {
    private static final int CLIENTS = 10;

    private static FedAvgTrainer run(int verifyCoordinates) {
        return FedAvgTrainer.builder().variant(FedAvgVariant.GOPA).model(FederatedFixtures.softmax(5, 3, 1))
                .clients(FederatedFixtures.softmaxClients(CLIENTS, 12, 5, 3, 2)).rounds(3).localSteps(2).localBatch(4)
                .localRate(new LearningRate.Constant(0.2)).clip(1.0).noiseMultipliers(1.0, 5.0).gopaK(2)
                .noiseKind(NoiseKind.SEEDED).seed(7).verify(verifyCoordinates).build();
    }

    private static String[] rows(FedAvgTrainer t) {
        return t.verificationLog().orElseThrow().csv().split("\n");
    }

    @Test
    void anHonestVerifiedRunPassesAndTrainsAsUnverifiedGopaToTheFixedPointRounding() {
        try (FedAvgTrainer plain = run(0); FedAvgTrainer verified = run(4)) {
            for (int r = 0; r < 3; r++) {
                plain.step();
                verified.step();
            }
            // the server averages the published fixed-point values (each part to 2^-16 of [-C, C]), not the reveal's floats
            double[] a = plain.parameters().toDoubleVector();
            double[] b = verified.parameters().toDoubleVector();
            assertArrayEquals(a, b, 1e-4);
            assertTrue(!java.util.Arrays.equals(a, b), "the verified run averages the published values, not the floats");
            assertEquals(plain.epsilon(), verified.epsilon(), 0.0, "verification changes no charge when nobody is lost");
            String[] rows = rows(verified);
            assertEquals(1 + 3 * CLIENTS, rows.length);
            for (int i = 1; i < rows.length; i++) {
                assertTrue(rows[i].contains(",passed,,4,"), rows[i]);
            }
            assertTrue(verified.resolved().get("verification").toString().contains("every party passed"));
            assertTrue(verified.reports().containsKey(VerificationLog.FILE_NAME));
            assertTrue(plain.verificationLog().isEmpty() && !plain.reports().containsKey(VerificationLog.FILE_NAME));
        }
    }

    @ParameterizedTest
    @EnumSource(Lie.class)
    void eachLieIsCaughtAndOnlyTheLiarIsExcludedAndNamed(Lie lie) {
        try (FedAvgTrainer plain = run(0); FedAvgTrainer verified = run(Integer.MAX_VALUE)) {
            verified.verification().orElseThrow().lie(3, lie);
            plain.step();
            verified.step();
            String[] rows = rows(verified);
            for (int k = 0; k < CLIENTS; k++) {
                String row = rows[1 + k];
                if (k == 3) {
                    assertTrue(row.startsWith("1,3,excluded,") && row.contains(expectedFailure(lie)), lie + ": " + row);
                } else {
                    assertTrue(row.contains(",passed,"), lie + " must not blame party " + k + ": " + row);
                }
            }
            assertTrue(verified.resolved().get("verification").toString().contains("{3=1}"), verified.resolved().toString());
            assertTrue(verified.epsilon() > plain.epsilon(), "a round that lost a party is charged without pairwise noise");
            assertTrue(verified.ledger().orElseThrow().ledger().entries().stream()
                    .anyMatch(e -> e.mechanism().contains("lost parties [3]")));
            assertTrue(java.util.Arrays.stream(verified.parameters().toDoubleVector()).allMatch(Double::isFinite));
        }
    }

    private static String expectedFailure(Lie lie) {
        return switch (lie) {
            case RANGE, FORGED_PROOF -> "value-out-of-range";
            case CANCELLATION -> "pairwise-not-cancelling";
            case PUBLISHED_VALUE -> "published-value-mismatch";
        };
    }

    @Test
    void aRangeLieOnEveryCoordinateIsCaughtBySpotChecks() {
        try (FedAvgTrainer verified = run(2)) {
            verified.verification().orElseThrow().lie(6, Lie.RANGE);
            verified.step();
            assertTrue(rows(verified)[1 + 6].startsWith("1,6,excluded,value-out-of-range,2,"), rows(verified)[7]);
        }
    }

    @Test
    void tenPercentDroppingOutAfterTheExchangeLeavesARunThatContinuesOverTheSurvivors() {
        try (FedAvgTrainer verified = run(3)) {
            verified.verification().orElseThrow().dropOut(1, 4);
            for (int r = 0; r < 3; r++) {
                verified.step();
            }
            String[] rows = rows(verified);
            assertTrue(rows[1 + CLIENTS + 4].startsWith("2,4,dropped-out,dropped-out,"), rows[1 + CLIENTS + 4]);
            long passed = java.util.Arrays.stream(rows).skip(1).filter(r -> r.contains(",passed,")).count();
            assertEquals(3 * CLIENTS - 1, passed);
            assertEquals(3, verified.round());
            assertTrue(java.util.Arrays.stream(verified.parameters().toDoubleVector()).allMatch(Double::isFinite));
        }
    }

    /** A resumed verified run's verification.csv holds every round since the first, as the uninterrupted run's does. */
    @Test
    void aResumedVerifiedRunKeepsTheRoundsBeforeItsCheckpoint(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.nio.file.Path file = dir.resolve("gopa.ckpt");
        String[] whole;
        try (FedAvgTrainer uninterrupted = run(3)) {
            uninterrupted.verification().orElseThrow().dropOut(1, 4);
            for (int r = 0; r < 3; r++) {
                uninterrupted.step();
            }
            whole = withoutTimes(rows(uninterrupted));
        }
        try (FedAvgTrainer first = run(3)) {
            first.verification().orElseThrow().dropOut(1, 4);
            first.step();
            first.step();
            org.dpdl4j.runtime.RunCheckpoint.save(first, file);
        }
        try (FedAvgTrainer resumed = run(3)) {
            org.dpdl4j.runtime.RunCheckpoint.resume(resumed, org.dpdl4j.runtime.RunCheckpoint.read(file),
                    org.dpdl4j.runtime.ResumePolicy.strict());
            resumed.step();
            assertArrayEquals(whole, withoutTimes(rows(resumed)), "rounds 1 and 2 (party 4 dropped out of round 2) and 3");
            assertEquals(1, resumed.verificationLog().orElseThrow().lostRounds().get(4));
            assertTrue(resumed.resolved().get("verification").toString().contains("3 rounds"));
        }
    }

    /** The rows without their three timing columns, which differ from run to run. */
    private static String[] withoutTimes(String[] rows) {
        return java.util.Arrays.stream(rows).map(r -> r.replaceAll("(,[^,]*){3}$", "")).toArray(String[]::new);
    }
}
