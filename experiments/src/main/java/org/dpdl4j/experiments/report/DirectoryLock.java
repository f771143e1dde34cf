package org.dpdl4j.experiments.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Optional;
import org.dpdl4j.runtime.RunFilePermissions;

/**
 * Claims a directory for one process: an operating-system lock on the file {@value #FILE_NAME} inside it, which
 * names the process (pid, purpose, start time) while it holds it. A second claim, from this or another process,
 * fails while the first holds it, so two runs can never write into one directory; the lock disappears with the
 * process, so a crashed run never leaves its directory claimed. The lock file stays after the release, holding only
 * the command that wrote the directory ({@code command=dpdl4j train}), so that a later claim by another command can
 * tell that the directory is not its own; a claim {@linkplain #abandon abandoned} (nothing written under it) leaves the
 * directory's record as it was, removing the lock file if the claim created it.
 */
public final class DirectoryLock implements AutoCloseable {
    /** The lock file inside a claimed directory. */
    public static final String FILE_NAME = ".dpdl4j.lock";
    /** The lock file as lists of a run's files name it. */
    public static final String LISTED = FILE_NAME + " (the directory's claim; it names the command that wrote it)";
    private static final String COMMAND_KEY = "command=";

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;
    private final String command;
    /** Whether this claim created the lock file (so that abandoning the claim removes it). */
    private final boolean createdFile;

    private DirectoryLock(Path file, FileChannel channel, FileLock lock, String command, boolean createdFile) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
        this.command = command;
        this.createdFile = createdFile;
    }

    /**
     * Claims a directory (created if missing), or says who holds it.
     *
     * @param command the command that claims it, recorded at the release, e.g. "dpdl4j train"
     * @param purpose what the claim is for, e.g. "dpdl4j train --algo decor"
     * @return the lock, or empty when another claim holds the directory
     * @throws UncheckedIOException when the directory or its lock file cannot be created
     */
    public static Optional<DirectoryLock> tryClaim(Path dir, String command, String purpose) {
        Path file = dir.resolve(FILE_NAME);
        FileChannel channel = null;
        try {
            Files.createDirectories(dir);
            boolean created = !Files.exists(file);
            channel = FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE), RunFilePermissions.fileAttributes(file));
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;   // this JVM already holds it
            }
            if (lock == null) {
                channel.close();
                return Optional.empty();
            }
            channel.truncate(0);
            String holder = "pid=" + ProcessHandle.current().pid() + "\npurpose=" + purpose + "\nsince=" + Instant.now() + "\n";
            channel.write(ByteBuffer.wrap(holder.getBytes(StandardCharsets.UTF_8)));
            channel.force(false);
            if (!holder.equals(readOrNull(file))) {
                // An abandoned claim removed the file between our opening and locking it: the lock is on a file that is
                // no longer the directory's. Start again on the directory's current lock file.
                lock.release();
                channel.close();
                return tryClaim(dir, command, purpose);
            }
            return Optional.of(new DirectoryLock(file, channel, lock, command, created));
        } catch (IOException e) {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // the claim failed anyway
                }
            }
            throw new UncheckedIOException("cannot claim the directory " + dir + ": " + e.getMessage()
                    + "; check that it is writable", e);
        }
    }

    /**
     * Claims a directory or refuses, naming the process that holds it.
     *
     * @throws IllegalStateException when another claim holds it
     */
    public static DirectoryLock claim(Path dir, String command, String purpose) {
        return tryClaim(dir, command, purpose).orElseThrow(() -> new IllegalStateException(dir + " is in use by another dpdl4j"
                + " process (" + holder(dir) + "); wait for it to finish, or use another directory"));
    }

    /** Who holds a directory's lock, in words (from its lock file). */
    static String holder(Path dir) {
        try {
            String text = Files.readString(dir.resolve(FILE_NAME), StandardCharsets.UTF_8).strip();
            return text.isEmpty() ? "lock file being written" : text.replace('\n', ' ').replace("=", " ");
        } catch (IOException e) {
            return "lock file unreadable";
        }
    }

    /**
     * The command that wrote a directory no process holds, as its lock file records it; empty when the directory has
     * no lock file or one that records no command (written by an earlier dpdl4j, or held right now).
     */
    public static Optional<String> recordedCommand(Path dir) {
        try {
            return Files.readAllLines(dir.resolve(FILE_NAME), StandardCharsets.UTF_8).stream()
                    .filter(l -> l.startsWith(COMMAND_KEY)).map(l -> l.substring(COMMAND_KEY.length())).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static String readOrNull(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }

    /** The claimed directory. */
    public Path directory() {
        return file.getParent();
    }

    /**
     * Releases the claim, leaving in the lock file only the command that wrote the directory. The lock file stays:
     * deleting it before the release would let a process that opened it just before lock the unlinked file while a
     * third creates and locks a new one.
     */
    @Override
    public void close() {
        release(Optional.of(command));
    }

    /**
     * Releases a claim that was refused or not used, leaving the directory's record as it was: the lock file the claim
     * created goes (removed while still locked, so that a claimant that opened it meanwhile sees, once it gets the
     * lock, that the file is no longer the directory's and claims afresh); an earlier one keeps what it held (the
     * command that wrote the directory, or nothing).
     */
    public void abandon(Optional<String> previousCommand) {
        if (!createdFile) {
            release(previousCommand);
            return;
        }
        try {
            Files.deleteIfExists(file);
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release the claim on " + directory() + ": " + e.getMessage(), e);
        }
    }

    private void release(Optional<String> record) {
        try {
            channel.truncate(0);
            if (record.isPresent()) {
                channel.write(ByteBuffer.wrap((COMMAND_KEY + record.get() + "\n").getBytes(StandardCharsets.UTF_8)), 0);
            }
            channel.force(false);
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release the claim on " + directory() + ": " + e.getMessage(), e);
        }
    }
}
