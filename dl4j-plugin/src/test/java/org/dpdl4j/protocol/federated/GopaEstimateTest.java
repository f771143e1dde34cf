package org.dpdl4j.protocol.federated;

import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.LearningRate;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GOPA with kappa taken over sampled colluding sets prices an estimate, not a guarantee: its ledger says so, and so does
 * every statement of its epsilon; with the worst case over every set nothing is qualified.
 */
class GopaEstimateTest {

    private static FedAvgTrainer gopa(CollusionAnalysis analysis) {
        return FedAvgTrainer.builder().variant(FedAvgVariant.GOPA).model(FederatedFixtures.softmax(5, 3, 1))
                .clients(FederatedFixtures.softmaxClients(10, 12, 5, 3, 2)).rounds(2).localSteps(1).localBatch(4)
                .localRate(new LearningRate.Constant(0.2)).clip(1.0).noiseMultipliers(1.0, 5.0).gopaK(2)
                .colluders(0.2, analysis).noiseKind(NoiseKind.SEEDED).seed(7).build();
    }

    @Test
    void sampledColludingSetsMakeEveryEpsilonAnEstimate() {
        try (FedAvgTrainer sampled = gopa(CollusionAnalysis.sampled(20, 3)); FedAvgTrainer worst = gopa(CollusionAnalysis.worstCase())) {
            sampled.runToEnd();
            worst.runToEnd();
            RunLedger ledger = sampled.ledger().orElseThrow();
            assertTrue(ledger.notAGuarantee().orElseThrow().contains("20 randomly sampled colluding sets"), ledger.notAGuarantee().get());
            String statement = sampled.privacyStatement();
            assertTrue(statement.contains("accountant's ESTIMATE, from the sampled kappa above"), statement);
            assertTrue(statement.contains("WARNING: this epsilon is not a guarantee: it is an ESTIMATE: GOPA's kappa"), statement);
            assertTrue(statement.contains("--colluding-sets worst gives a guarantee"), statement);

            assertFalse(worst.ledger().orElseThrow().notAGuarantee().isPresent());
            String guaranteed = worst.privacyStatement();
            assertFalse(guaranteed.contains("ESTIMATE"), guaranteed);
            assertTrue(sampled.epsilon() <= worst.epsilon() * (1 + 1e-9), "a sample of the sets is at most their worst case: "
                    + sampled.epsilon() + " vs " + worst.epsilon());
            assertEquals(2, sampled.completedSteps());
        }
    }
}
