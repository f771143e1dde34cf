package org.dpdl4j.protocol.central;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.TestNetworks;
import org.dpdl4j.runtime.RunAssertions;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.learning.config.Adam;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/** Plain central training as a run: its epochs, and a resume anywhere in an epoch. */
class MinibatchSgdRunTest {
    private static final int N = 50;
    private static final INDArray X = TestNetworks.features(DataType.DOUBLE, 3, N, 4);
    private static final INDArray Y = TestNetworks.oneHot(DataType.DOUBLE, 4, N, 3);

    /** 50 examples in batches of 15: four steps an epoch, the last one short; Adam, so the updater has state. */
    private static MinibatchSgdRun run(double epochs) {
        MultiLayerNetwork net = TestNetworks.mlp(DataType.DOUBLE, 9, Activation.TANH, Activation.SOFTMAX, LossFunction.MCXENT,
                new Adam(0.02), 4, 6, 3);
        return new MinibatchSgdRun(net, X, Y, 15, epochs, 21, RunSettings.empty().with(RunOptions.SEED, 21L)
                .with(RunOptions.EPOCHS, epochs).with(RunOptions.BATCH_SIZE, 15L));
    }

    @ParameterizedTest(name = "cut after {0} steps")
    @ValueSource(longs = {1, 4, 5, 7})
    void aResumeInsideOrBetweenEpochsEqualsAnUninterruptedRun(long cut, @TempDir Path dir) {
        RunAssertions.assertResumeEqualsUninterrupted(() -> run(3), cut, 12, dir.resolve("sgd.ckpt"));
    }

    @Test
    void anEpochIsOnePassInShuffledBatches() {
        try (MinibatchSgdRun r = run(2.5)) {
            assertEquals(4, r.stepsPerEpoch());
            assertEquals(10, r.plannedSteps(), "2.5 epochs of 4 steps");
            r.step();
            r.fitEpoch();   // finishes the epoch begun
            assertEquals(4, r.completedSteps());
            assertEquals(1, r.model().getEpochCount());
            r.fitEpoch();
            assertEquals(8, r.completedSteps());
            assertTrue(r.ledger().isEmpty() && r.epsilon() == Double.POSITIVE_INFINITY, "no privacy, no ledger");
        }
    }
}
