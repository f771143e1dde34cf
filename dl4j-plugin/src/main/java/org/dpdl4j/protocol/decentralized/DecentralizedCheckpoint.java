package org.dpdl4j.protocol.decentralized;

import java.nio.file.Path;
import org.dpdl4j.runtime.CheckpointFile;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Saves and restores the state of a decentralized run: the round counter and the node models. Every
 * random stream is keyed by (seed, purpose, id, round), so nothing else is needed for a resumed run with
 * seeded streams to continue exactly as an uninterrupted one. Saves are atomic ({@link CheckpointFile}).
 */
public final class DecentralizedCheckpoint {
    private static final CheckpointFile FORMAT = new CheckpointFile("decentralized", 0x44504443 /* "DPDC" */, 1);

    private DecentralizedCheckpoint() {
    }

    /** Writes the trainer's state to {@code file} atomically. */
    public static void save(DecentralizedTrainer trainer, Path file) {
        FORMAT.save(file, trainer.round(), trainer.config().seed(), trainer.config().algorithm().name(),
                out -> Nd4j.write(trainer.params(), out));
    }

    /**
     * Restores {@code file} into a trainer built with the same graph, data, model and configuration.
     *
     * @return the round the run resumes from
     */
    public static long restore(DecentralizedTrainer trainer, Path file) {
        return FORMAT.restore(file, trainer.config().seed(), trainer.config().algorithm().name(),
                (in, round) -> trainer.restore(round, Nd4j.read(in)));
    }
}
