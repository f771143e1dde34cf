package org.dpdl4j.protocol.federated;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.dpdl4j.runtime.CheckpointFile;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Saves and restores a {@link FederatedTrainer}: the round counter, the algorithm name and seed (checked on
 * restore) and the trainer's named state arrays. Saves are atomic ({@link CheckpointFile}).
 */
public final class FederatedCheckpoint {
    private static final CheckpointFile FORMAT = new CheckpointFile("federated", 0x44504643 /* "DPFC" */, 1);

    private FederatedCheckpoint() {
    }

    /** Writes the trainer's state to {@code file} atomically. */
    public static void save(FederatedTrainer trainer, Path file) {
        Map<String, INDArray> state = trainer.state();
        FORMAT.save(file, trainer.round(), trainer.seed(), trainer.algorithm(), out -> {
            out.writeInt(state.size());
            for (Map.Entry<String, INDArray> e : state.entrySet()) {
                out.writeUTF(e.getKey());
                Nd4j.write(e.getValue(), out);
            }
        });
    }

    /**
     * Restores {@code file} into a trainer built with the same data, model and settings.
     *
     * @return the round the run resumes from
     */
    public static long restore(FederatedTrainer trainer, Path file) {
        return FORMAT.restore(file, trainer.seed(), trainer.algorithm(), (in, round) -> {
            int count = in.readInt();
            Map<String, INDArray> state = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                String name = in.readUTF();
                state.put(name, Nd4j.read(in));
            }
            trainer.restore(round, state);
        });
    }
}
