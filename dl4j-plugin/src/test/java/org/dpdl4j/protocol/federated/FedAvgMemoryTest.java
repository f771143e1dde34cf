package org.dpdl4j.protocol.federated;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.MemoryFixtures;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PeakResidentMemory;
import org.junit.jupiter.api.Test;

class FedAvgMemoryTest {

    private static FedAvgRunBuilder centralDp(MultiLayerNetwork net, List<NodeData> clients) {
        return FedAvgTrainer.builder().variant(FedAvgVariant.DP_CENTRAL).model(net).clients(clients).rounds(3).localSteps(5)
                .localBatch(32).localRate(new LearningRate.Constant(0.1)).clip(1.0).noiseMultipliers(1.0, Double.NaN)
                .noiseKind(NoiseKind.SEEDED);
    }

    private static MultiLayerNetwork network() {
        return MemoryFixtures.mlp(300, 64, 10);
    }

    private static List<NodeData> clients() {
        return MemoryFixtures.parties(1000, 30, 300, 10);
    }

    /** Measures building a run of a thousand clients and its first three rounds. */
    public static void main(String[] args) {
        MultiLayerNetwork net = network();
        List<NodeData> clients = clients();
        PeakResidentMemory.report(() -> {
            try (FedAvgTrainer run = centralDp(net, clients).build()) {
                run.run(3);
            }
        });
    }

    @Test
    void theEstimateOfARoundOfAThousandClientsMatchesWhatItTakes() {
        MemoryEstimate estimate = new FedAvgMemory(FedAvgVariant.DP_CENTRAL, ModelFootprint.of(network().getLayerWiseConfigurations()),
                DataShape.of(clients()), 1000, new ClientSampling.Everyone(), 32, 3).estimate();
        MemoryFixtures.assertClose(estimate, PeakResidentMemory.inFreshJvm(FedAvgMemoryTest.class));
    }

    @Test
    void sixtyThousandClientsOfAWideNetworkAreRefusedBeforeAnythingIsAllocated() {
        MultiLayerNetwork net = MemoryFixtures.mlp(100, 4096, 10);
        List<NodeData> clients = MemoryFixtures.parties(60_000, 1, 100, 10);
        String[] message = new String[1];
        long measured = PeakResidentMemory.of(() -> message[0] = assertThrows(IllegalArgumentException.class,
                () -> centralDp(net, clients).build()).getMessage());
        assertTrue(message[0].startsWith("dp-fedavg-central with 60000 clients of a model of 454,666 parameters needs about"),
                message[0]);
        assertTrue(message[0].contains("the participants' models 109.1 GB") && message[0].contains("(--machines "), message[0]);
        assertTrue(measured < 100_000_000, "refused after allocating " + measured + " bytes");
    }
}
