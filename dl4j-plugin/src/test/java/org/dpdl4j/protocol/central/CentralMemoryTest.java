package org.dpdl4j.protocol.central;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.optim.PrivateTrainer;
import org.dpdl4j.optim.TestNetworks;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.MemoryFixtures;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.PeakResidentMemory;
import org.dpdl4j.runtime.TrainingSet;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

class CentralMemoryTest {

    private static MultiLayerNetwork network(String kind) {
        return kind.equals("cnn") ? ModelKind.CNN.network(784, 10, ModelOptions.defaults()) : MemoryFixtures.mlp(784, 1024, 1024, 10);
    }

    private static INDArray features(int n) {
        return TestNetworks.features(DataType.FLOAT, 1, n, 784);
    }

    private static INDArray labels(int n) {
        return TestNetworks.oneHot(DataType.FLOAT, 2, n, 10);
    }

    /** Measures building DP-SGD on {@code args[1]} random examples of 784 values and three steps in batches of {@code args[2]}. */
    public static void main(String[] args) {
        MultiLayerNetwork net = network(args[0]);
        int n = Integer.parseInt(args[1]);
        int batch = Integer.parseInt(args[2]);
        INDArray x = features(n);
        INDArray y = labels(n);
        PeakResidentMemory.report(() -> {
            try (PrivateTrainer run = PrivateTrainer.builder(net, DpSgdConfig.withNoise(1.0, 1.0, 1e-5, batch, 1)).data(x, y)
                    .noise(NoiseKind.SEEDED.source(new NoiseKey(1, "dp-sgd", 0, 0)))
                    .sampling(NoiseKind.SEEDED.sampling(new NoiseKey(1, "sampling", 0, 0))).build()) {
                run.run(3);
            }
        });
    }

    private static void check(String kind, int n, int batch) {
        DataShape data = DataShape.of(new TrainingSet(features(n), labels(n), null, 0));
        MemoryEstimate estimate = new CentralMemory("dp-sgd", ModelFootprint.of(network(kind).getLayerWiseConfigurations()), data, batch,
                0, true, true).estimate();
        MemoryFixtures.assertClose(estimate, PeakResidentMemory.inFreshJvm(CentralMemoryTest.class, kind, Integer.toString(n),
                Integer.toString(batch)));
    }

    @Test
    void theEstimateOfDpSgdStepsOfAWideMlpMatchesWhatTheyTake() {
        check("mlp", 8192, 4096);
    }

    @Test
    void theEstimateOfDpSgdStepsOfTheCnnMatchesWhatTheyTake() {
        check("cnn", 4096, 2048);
    }
}
