package org.dpdl4j.protocol.decentralized;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.junit.jupiter.api.Test;

/**
 * Example-level privacy assumes that one example moves its node's gradient by at most C / b. Two set-ups break that
 * assumption, so they are refused rather than under-accounted: the sum objective (one example moves the sum by C)
 * and fixed-size batches larger than a node's data (the node divides by its smaller size).
 */
class DecentralizedSensitivityTest {
    private static final List<NodeData> NODES = DecentralizedFixtures.data(4, 3, 5);
    private static final int SMALLEST = (int) NODES.stream().mapToLong(NodeData::size).min().orElseThrow();

    private static DecentralizedRunBuilder exampleLevelDecor() {
        return DecentralizedTrainer.builder().algorithm(DecentralizedAlgorithm.DECOR).model(DecentralizedFixtures.leastSquares(3))
                .graph(Topologies.ring(4)).nodeData(NODES).unit(ProtectedUnit.EXAMPLE).clip(1.0)
                .learningRate(new LearningRate.Constant(0.01)).rounds(10).noise(1.0, 1.0).noiseKind(NoiseKind.SEEDED);
    }

    @Test
    void theSumObjectiveIsRefusedAtExampleLevel() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> exampleLevelDecor()
                .objective(LocalObjective.SUM).sampling(SamplingScheme.FULL_BATCH).build());
        assertTrue(e.getMessage().contains("example-level privacy needs the mean local objective"), e.getMessage());
    }

    @Test
    void fixedSizeBatchesLargerThanANodeAreRefusedAtExampleLevel() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> exampleLevelDecor()
                .sampling(SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT).batchSize(SMALLEST + 1).build());
        assertTrue(e.getMessage().contains("fewer than the batch size " + (SMALLEST + 1)), e.getMessage());
        // At the limit the analysis holds, and the run is built.
        exampleLevelDecor().sampling(SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT).batchSize(SMALLEST).build().close();
    }

    @Test
    void cdpRefusesWeightsOtherThanExactAveraging() {
        org.dpdl4j.graph.Graph complete = Topologies.complete(4);
        // Half kept, half spread: doubly stochastic, but node i's model keeps its own noise at weight 1/2.
        double[][] lazy = new double[4][4];
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                lazy[i][j] = i == j ? 0.5 : 1.0 / 6;
            }
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> exampleLevelDecor()
                .algorithm(DecentralizedAlgorithm.CDP).graph(complete).noise(1.0, 0.0).batchSize(2)
                .mixing(org.dpdl4j.graph.MixingMatrix.of(complete, lazy)).build());
        assertTrue(e.getMessage().contains("CDP averages the nodes exactly"), e.getMessage());
        exampleLevelDecor().algorithm(DecentralizedAlgorithm.CDP).graph(complete).noise(1.0, 0.0).batchSize(2)
                .mixing(org.dpdl4j.graph.MixingMatrix.averaging(complete)).build().close();
    }
}
