package org.dpdl4j.optim;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.runtime.CheckpointException;
import org.dpdl4j.runtime.ResumePolicy;
import org.dpdl4j.runtime.RunCheckpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/** What the library says to a Java caller names settings and methods, never command-line options. */
class LibraryMessagesTest {

    @Test
    void aResumeWithAChangedTargetNamesTheSettingAndTheJavaFix(@TempDir Path dir) {
        INDArray x = TestNetworks.features(DataType.FLOAT, 1, 200, 4);
        INDArray y = TestNetworks.oneHot(DataType.FLOAT, 2, 200, 2);
        Path file = dir.resolve("run.ckpt");
        DpSgdConfig.Builder settings = DpSgdConfig.builder().clipNorm(1).delta(1e-4).batchSize(20).epochs(2);
        try (PrivateTrainer first = PrivateTrainer.builder(net(), settings.targetEpsilon(2).build()).data(x, y).build()) {
            first.run(3);
            RunCheckpoint.save(first, file);
        }
        try (PrivateTrainer second = PrivateTrainer.builder(net(), settings.targetEpsilon(4).build()).data(x, y).build()) {
            String m = assertThrows(CheckpointException.class,
                    () -> RunCheckpoint.resume(second, RunCheckpoint.read(file), ResumePolicy.strict())).getMessage();
            assertTrue(m.contains("epsilon: 2") && m.contains("-> 4") && m.contains("ResumePolicy.allowingChanges()"), m);
            assertFalse(m.contains("--"), "no command-line option in a library message: " + m);
        }
    }

    private static MultiLayerNetwork net() {
        return TestNetworks.mlp(DataType.FLOAT, 3, Activation.TANH, 4, 2);
    }
}
