package org.dpdl4j.spark;

import static org.dpdl4j.runtime.engine.PartyFixtures.assertBitwise;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.ResumePolicy;
import org.dpdl4j.runtime.RunCheckpoint;
import org.dpdl4j.runtime.engine.PartyFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver keeps the ledger: a Spark run checkpointed, its driver (and Spark application) stopped, and a new driver
 * resumed from the checkpoint ends with the ledger and the models of an uninterrupted run.
 */
class SparkCheckpointTest {
    private static final int ROUNDS = 8;
    private static final int SAVED_AFTER = 3;

    @TempDir
    Path dir;

    @Test
    void theLedgerSurvivesADriverRestartThroughTheCheckpoint() {
        Path file = dir.resolve(RunCheckpoint.FILE_NAME);
        try (DecentralizedTrainer first = decor(); DecentralizedTrainer saved = decor()) {
            first.distribute(SparkBlocks.connect(SparkSettings.master("local[2]").withBlocks(3), "before the restart"));
            first.run(SAVED_AFTER);
            RunCheckpoint.save(first, file);
            saved.run(SAVED_AFTER);
            assertEquals(saved.ledger().orElseThrow().ledger(), first.ledger().orElseThrow().ledger());
        }   // the first driver's Spark application stops here
        try (DecentralizedTrainer reference = decor(); DecentralizedTrainer resumed = decor()) {
            resumed.distribute(SparkBlocks.connect(SparkSettings.master("local[2]").withBlocks(2), "after the restart"));
            RunCheckpoint.resume(resumed, RunCheckpoint.read(file), new ResumePolicy(false, "-"));
            assertEquals(SAVED_AFTER, resumed.completedSteps());
            reference.run(SAVED_AFTER);
            assertEquals(reference.epsilon(), resumed.epsilon(), "the ledger read back holds what was spent");
            resumed.runToEnd();
            reference.runToEnd();
            assertEquals(reference.ledger().orElseThrow().ledger(), resumed.ledger().orElseThrow().ledger());
            assertEquals(reference.epsilon(), resumed.epsilon());
            assertBitwise(reference.params(), resumed.params(), "node models");
        }
    }

    private static DecentralizedTrainer decor() {
        return DecentralizedTrainer.builder().algorithm(DecentralizedAlgorithm.DECOR).model(PartyFixtures.mlp())
                .graph(Topologies.ring(6)).nodeData(PartyFixtures.data(6, 2)).unit(ProtectedUnit.EXAMPLE).clip(1.0).batchSize(8)
                .learningRate(new LearningRate.Constant(0.1)).rounds(ROUNDS).target(6.0, 1e-5).seed(9).noiseKind(NoiseKind.SEEDED)
                .build();
    }
}
