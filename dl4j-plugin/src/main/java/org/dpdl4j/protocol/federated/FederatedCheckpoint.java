package org.dpdl4j.protocol.federated;

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
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Saves and restores a {@link FederatedTrainer}: the round counter, the algorithm name and seed (checked on
 * restore) and the trainer's named state arrays. Files are written to a temporary name and moved into place,
 * so a crash during a save never destroys the previous checkpoint.
 */
public final class FederatedCheckpoint {
    private static final int MAGIC = 0x44504643;   // "DPFC"
    private static final int VERSION = 1;

    private FederatedCheckpoint() {
    }

    /** Writes the trainer's state to {@code file} atomically. */
    public static void save(FederatedTrainer trainer, Path file) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Map<String, INDArray> state = trainer.state();
            try (OutputStream os = Files.newOutputStream(tmp); DataOutputStream out = new DataOutputStream(os)) {
                out.writeInt(MAGIC);
                out.writeInt(VERSION);
                out.writeLong(trainer.round());
                out.writeLong(trainer.seed());
                out.writeUTF(trainer.algorithm());
                out.writeInt(state.size());
                for (Map.Entry<String, INDArray> e : state.entrySet()) {
                    out.writeUTF(e.getKey());
                    Nd4j.write(e.getValue(), out);
                }
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
     * Restores {@code file} into a trainer built with the same data, model and settings.
     *
     * @return the round the run resumes from
     */
    public static long restore(FederatedTrainer trainer, Path file) {
        try (InputStream is = Files.newInputStream(file); DataInputStream in = new DataInputStream(is)) {
            if (in.readInt() != MAGIC) {
                throw new IllegalArgumentException(file + " is not a dpdl4j federated checkpoint (wrong magic number)");
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw new IllegalArgumentException(file + " has checkpoint format " + version + "; this dpdl4j reads format " + VERSION);
            }
            long round = in.readLong();
            long seed = in.readLong();
            String algorithm = in.readUTF();
            if (seed != trainer.seed() || !algorithm.equals(trainer.algorithm())) {
                throw new IllegalArgumentException("checkpoint " + file + " is from a " + algorithm + " run with seed " + seed
                        + ", but this run is " + trainer.algorithm() + " with seed " + trainer.seed() + "; resume with the original settings");
            }
            int count = in.readInt();
            Map<String, INDArray> state = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                String name = in.readUTF();
                state.put(name, Nd4j.read(in));
            }
            trainer.restore(round, state);
            return round;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read checkpoint " + file + " (truncated or corrupt?): " + e.getMessage(), e);
        }
    }
}
