package org.dpdl4j.runtime;

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
import java.util.Objects;

/**
 * The framing every training checkpoint shares: a magic number naming the kind of run, a format version, the
 * round counter, and the seed and algorithm that a resumed run must match; the run's own state follows. Files
 * are written to a temporary name and moved into place, so a crash during a save never destroys the previous
 * checkpoint.
 *
 * @param kind    what the file holds, in messages (e.g. {@code decentralized})
 * @param magic   the kind's magic number
 * @param version the format version this code writes and reads
 */
public record CheckpointFile(String kind, int magic, int version) {

    /** Writes the run's state after the header. */
    @FunctionalInterface
    public interface StateWriter {
        void write(DataOutputStream out) throws IOException;
    }

    /** Reads the run's state after a header that matched, and restores it at {@code round}. */
    @FunctionalInterface
    public interface StateReader {
        void read(DataInputStream in, long round) throws IOException;
    }

    public CheckpointFile {
        Objects.requireNonNull(kind, "kind");
    }

    /** Writes header and state to {@code file} atomically. */
    public void save(Path file, long round, long seed, String algorithm, StateWriter state) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (OutputStream os = Files.newOutputStream(tmp); DataOutputStream out = new DataOutputStream(os)) {
                out.writeInt(magic);
                out.writeInt(version);
                out.writeLong(round);
                out.writeLong(seed);
                out.writeUTF(algorithm);
                state.write(out);
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
     * Checks the header of {@code file} against the run being resumed, then hands the state to {@code state}.
     *
     * @return the round the run resumes from
     * @throws IllegalArgumentException for another kind of file, another format version, or a checkpoint of a run
     *                                  with another seed or algorithm
     */
    public long restore(Path file, long seed, String algorithm, StateReader state) {
        try (InputStream is = Files.newInputStream(file); DataInputStream in = new DataInputStream(is)) {
            if (in.readInt() != magic) {
                throw new IllegalArgumentException(file + " is not a dpdl4j " + kind + " checkpoint (wrong magic number)");
            }
            int found = in.readInt();
            if (found != version) {
                throw new IllegalArgumentException(file + " has checkpoint format " + found + "; this dpdl4j reads format " + version);
            }
            long round = in.readLong();
            long savedSeed = in.readLong();
            String savedAlgorithm = in.readUTF();
            if (savedSeed != seed || !savedAlgorithm.equals(algorithm)) {
                throw new IllegalArgumentException("checkpoint " + file + " is from a " + savedAlgorithm + " run with seed "
                        + savedSeed + ", but this run is " + algorithm + " with seed " + seed + "; resume with the original settings");
            }
            state.read(in, round);
            return round;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read checkpoint " + file + " (truncated or corrupt?): " + e.getMessage(), e);
        }
    }
}
