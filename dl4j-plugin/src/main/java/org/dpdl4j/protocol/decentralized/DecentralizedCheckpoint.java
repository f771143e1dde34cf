package org.dpdl4j.protocol.decentralized;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Saves and restores the state of a decentralized run: the round counter and the node models. Every
 * random stream is keyed by (seed, purpose, id, round), so nothing else is needed for a resumed run with
 * seeded streams to continue exactly as an uninterrupted one. Files are written to a temporary name and
 * moved into place, so a crash during a save never destroys the previous checkpoint.
 */
public final class DecentralizedCheckpoint {
    private static final int MAGIC = 0x44504443;   // "DPDC"
    private static final int VERSION = 1;

    private DecentralizedCheckpoint() {
    }

    /** Writes the trainer's state to {@code file} atomically. */
    public static void save(DecentralizedTrainer trainer, Path file) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            try (OutputStream os = Files.newOutputStream(tmp); DataOutputStream out = new DataOutputStream(os)) {
                out.writeInt(MAGIC);
                out.writeInt(VERSION);
                out.writeLong(trainer.round());
                out.writeLong(trainer.config().seed());
                out.writeUTF(trainer.config().algorithm().name());
                Nd4j.write(trainer.params(), out);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write checkpoint " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Restores {@code file} into a trainer built with the same graph, data, model and configuration.
     *
     * @return the round the run resumes from
     */
    public static long restore(DecentralizedTrainer trainer, Path file) {
        try (InputStream is = Files.newInputStream(file); DataInputStream in = new DataInputStream(is)) {
            if (in.readInt() != MAGIC) {
                throw new IllegalArgumentException(file + " is not a dpdl4j decentralized checkpoint (wrong magic number)");
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw new IllegalArgumentException(file + " has checkpoint format " + version + "; this dpdl4j reads format " + VERSION);
            }
            long round = in.readLong();
            long seed = in.readLong();
            String algorithm = in.readUTF();
            if (seed != trainer.config().seed() || !algorithm.equals(trainer.config().algorithm().name())) {
                throw new IllegalArgumentException("checkpoint " + file + " is from a " + algorithm + " run with seed " + seed
                        + ", but this run is " + trainer.config().algorithm() + " with seed " + trainer.config().seed()
                        + "; resume with the original settings");
            }
            INDArray params = Nd4j.read(in);
            trainer.restore(round, params);
            return round;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read checkpoint " + file + " (truncated or corrupt?): " + e.getMessage(), e);
        }
    }
}
