package org.dpdl4j.protocol.decentralized;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.MemoryFixtures;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PeakResidentMemory;
import org.junit.jupiter.api.Test;

class DecentralizedMemoryTest {

    private static DecentralizedRunBuilder decor(MultiLayerNetwork net, Graph graph, List<NodeData> data) {
        return DecentralizedTrainer.builder().algorithm(DecentralizedAlgorithm.DECOR).model(net).graph(graph).nodeData(data)
                .unit(ProtectedUnit.EXAMPLE).clip(1.0).batchSize(16).learningRate(new LearningRate.Constant(0.1)).rounds(3)
                .noise(1.0, 1.0).noiseKind(NoiseKind.SEEDED);
    }

    private static MultiLayerNetwork network() {
        return MemoryFixtures.mlp(300, 64, 10);
    }

    private static List<NodeData> data() {
        return MemoryFixtures.parties(1000, 40, 300, 10);
    }

    /** Measures building a Decor run of a thousand nodes on a ring and its first three rounds. */
    public static void main(String[] args) {
        MultiLayerNetwork net = network();
        List<NodeData> data = data();
        PeakResidentMemory.report(() -> {
            try (DecentralizedTrainer run = decor(net, Topologies.ring(1000), data).build()) {
                run.run(3);
            }
        });
    }

    @Test
    void theEstimateOfADecorRoundOnAThousandNodesMatchesWhatItTakes() {
        MemoryEstimate estimate = new DecentralizedMemory(DecentralizedAlgorithm.DECOR,
                ModelFootprint.of(network().getLayerWiseConfigurations()), DataShape.of(data()), 1000, Topologies.ring(1000).edgeCount(),
                SamplingScheme.POISSON, 16).estimate();
        MemoryFixtures.assertClose(estimate, PeakResidentMemory.inFreshJvm(DecentralizedMemoryTest.class));
    }

    @Test
    void aHundredThousandNodesAreRefusedWithHowManyFit() {
        MultiLayerNetwork net = MemoryFixtures.mlp(100, 4096, 10);
        List<NodeData> data = MemoryFixtures.parties(100_000, 1, 100, 10);
        String message = assertThrows(IllegalArgumentException.class, () -> decor(net, Topologies.ring(100_000), data).build())
                .getMessage();
        assertTrue(message.startsWith("decor with 100000 nodes of a model of 454,666 parameters needs about"), message);
        assertTrue(message.contains("(--nodes ") || message.contains("a smaller model"), message);
    }
}
