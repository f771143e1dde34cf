package org.dpdl4j.protocol.federated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import org.dpdl4j.optim.LogCapture;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.UpdateNoise;
import org.junit.jupiter.api.Test;

/** A run whose noise dwarfs every averaged update says so before its first step, with the numbers. */
class UpdateNoiseWarningTest {

    private static FedAvgRunBuilder sixteenClients(FedAvgVariant variant) {
        return FedAvgTrainer.builder().variant(variant).model(FederatedFixtures.mlp(20, 32, 4, 1))
                .clients(FederatedFixtures.softmaxClients(16, 40, 20, 4, 2)).rounds(20).localSteps(2).localBatch(16)
                .localRate(new LearningRate.Constant(0.1)).clip(1.0).target(2.0, 1e-5).noiseKind(NoiseKind.SEEDED);
    }

    @Test
    void localNoiseOnSixteenClientsIsWarnedAboutBeforeTheFirstRound() {
        try (LogCapture log = new LogCapture(AbstractTrainingRun.class, Level.WARN);
             FedAvgTrainer run = sixteenClients(FedAvgVariant.DP_LOCAL).build()) {
            UpdateNoise noise = run.updateNoise().orElseThrow();
            assertTrue(noise.ratio() > UpdateNoise.DWARFING_RATIO, noise.toString());
            assertTrue(log.messages().isEmpty(), "not before training: " + log.messages());
            run.step();
            run.step();
            assertEquals(1, log.messages().size(), "once, before the first round: " + log.messages());
            String m = log.messages().get(0);
            assertTrue(m.startsWith("The noise dwarfs the signal") && m.contains("each of 804 parameters")
                    && m.contains("an expected 16 clipped client updates") && m.contains("average more"), m);
        }
    }

    @Test
    void centralNoiseOnTheSameClientsIsSixteenTimesSmallerPerUpdate() {
        try (FedAvgTrainer local = sixteenClients(FedAvgVariant.DP_LOCAL).noiseMultipliers(1.0, Double.NaN).target(Double.NaN, 1e-5).build();
             FedAvgTrainer central = sixteenClients(FedAvgVariant.DP_CENTRAL).noiseMultipliers(1.0, Double.NaN).target(Double.NaN, 1e-5).build()) {
            assertEquals(4.0, local.updateNoise().orElseThrow().noiseStd() / central.updateNoise().orElseThrow().noiseStd(), 1e-12,
                    "sqrt(16) clients' noises against the server's one");
            assertEquals(1.0 / 16, central.updateNoise().orElseThrow().noiseStd(), 1e-12);
        }
    }
}
