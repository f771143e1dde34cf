package org.dpdl4j.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.ledger.LedgerJson;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.runtime.options.ResumeRule;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.runtime.options.SettingChange;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A run saved to one file so that it can continue exactly where it stopped: the protocol, the step count, the
 * settings, the privacy ledger and the protocol's {@link RunState}.
 *
 * <p>Format 2: the magic bytes {@code DPDL4JCK}, the format version, the length of the content and its SHA-256,
 * then the content (a JSON header, then the arrays in ND4J's binary form). A file is written to a temporary name
 * in the same directory, flushed to the disk and renamed over the old one, so a crash during a save leaves the
 * previous checkpoint intact; reading verifies the length and the checksum before anything is restored, so a
 * truncated or altered file is refused with a message that says what is wrong, never loaded.
 */
public final class RunCheckpoint {
    /** The name of a run directory's checkpoint. */
    public static final String FILE_NAME = "checkpoint.bin";
    /** The format this code writes and reads. */
    public static final int FORMAT_VERSION = 2;

    private static final byte[] MAGIC = "DPDL4JCK".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER_BYTES = MAGIC.length + 4 + 8 + 32;
    /** The first four bytes of format 1, which recorded no ledger. */
    private static final int[] LEGACY_MAGICS = {0x44504443 /* DPDC */, 0x44504643 /* DPFC */};
    private static final ObjectMapper JSON = new ObjectMapper();

    private RunCheckpoint() {
    }

    /**
     * What a checkpoint holds.
     *
     * @param file           where it was read from
     * @param protocol       the protocol's registered name
     * @param completedSteps steps done when it was saved
     * @param plannedSteps   steps the run was planned for
     * @param settings       the run's settings
     * @param ledger         the run's ledger (absent for a protocol without a guarantee)
     * @param state          the protocol's state
     * @param notes          what the code around the run saved with it (e.g. a training loop's running means), by name
     * @param writtenAt      when it was saved
     */
    public record Saved(Path file, String protocol, long completedSteps, long plannedSteps, RunSettings.Saved settings,
                        Optional<LedgerJson.Saved> ledger, RunState state, java.util.Map<String, String> notes,
                        String writtenAt) {

        /** Whether the saved run had done all its planned steps. */
        public boolean finished() {
            return completedSteps >= plannedSteps;
        }
    }

    /**
     * Saves the run atomically: the previous file at {@code file}, if any, stays intact until the new one is whole.
     *
     * @throws java.io.UncheckedIOException naming the file when it cannot be written
     */
    public static void save(TrainingRun run, Path file) {
        save(run, file, java.util.Map.of());
    }

    /**
     * Saves the run atomically with notes of the code around it, which a resume gets back as {@link Saved#notes()}
     * (a training loop's state that is not the run's, such as the loss summed since its last report).
     *
     * @throws java.io.UncheckedIOException naming the file when it cannot be written
     */
    public static void save(TrainingRun run, Path file, java.util.Map<String, String> notes) {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(notes, "notes");
        Objects.requireNonNull(file, "file");
        if (run instanceof AbstractTrainingRun base) {
            base.requireFiniteParameters();
        }
        RunState state = run.state();
        ObjectNode meta = JSON.createObjectNode();
        meta.put("protocol", run.protocol()).put("completedSteps", run.completedSteps()).put("plannedSteps", run.plannedSteps())
                .put("stepUnit", run.stepUnit()).put("writtenAt", Instant.now().toString());
        meta.set("settings", run.settings().toJson());
        run.ledger().ifPresent(l -> meta.set("ledger", LedgerJson.write(l)));
        ObjectNode numbers = meta.putObject("numbers");
        state.numbers().forEach(numbers::put);
        ObjectNode notesNode = meta.putObject("notes");
        notes.forEach(notesNode::put);
        ArrayNode arrays = meta.putArray("arrays");
        state.arrays().keySet().forEach(arrays::add);
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = dir.resolve("." + file.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(tmp);
            // every party's model is in it: readable by its owner alone unless run files are shared
            try (FileChannel channel = FileChannel.open(tmp, java.util.Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE), RunFilePermissions.fileAttributes(tmp))) {
                channel.write(ByteBuffer.allocate(HEADER_BYTES));
                MessageDigest sha = sha256();
                CountingOutputStream counting = new CountingOutputStream(new DigestOutputStream(
                        new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16), sha));
                DataOutputStream out = new DataOutputStream(counting);
                byte[] json = JSON.writeValueAsBytes(meta);
                out.writeInt(json.length);
                out.write(json);
                for (INDArray a : state.arrays().values()) {
                    Nd4j.write(a, out);
                }
                out.flush();
                ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
                header.put(MAGIC).putInt(FORMAT_VERSION).putLong(counting.count).put(sha.digest()).flip();
                channel.write(header, 0);
                channel.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            DirectorySync.sync(dir);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the temporary file is named after this process; a later save replaces it
            }
            String reason = e instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
            throw new java.io.UncheckedIOException("could not write checkpoint " + file + ": " + reason
                    + " (the previous checkpoint, if any, is intact)", e);
        }
    }

    /**
     * Reads and verifies a checkpoint.
     *
     * @throws CheckpointException naming the file and what is wrong with it
     */
    public static Saved read(Path file) {
        Objects.requireNonNull(file, "file");
        long size = requireReadableFile(file);
        if (size < HEADER_BYTES) {
            throw new CheckpointException(file, "is " + size + " bytes long, too short to be a dpdl4j checkpoint ("
                    + HEADER_BYTES + " bytes of header alone): it is truncated or not a checkpoint");
        }
        long contentLength;
        byte[] expected = new byte[32];
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            byte[] magic = in.readNBytes(MAGIC.length);
            if (!java.util.Arrays.equals(magic, MAGIC)) {
                int first = ByteBuffer.wrap(magic).getInt();
                for (int legacy : LEGACY_MAGICS) {
                    if (first == legacy) {
                        throw new CheckpointException(file, "was written by an earlier dpdl4j (checkpoint format 1), which did"
                                + " not record the privacy ledger, so resuming it could under-report epsilon; start a new run"
                                + " (the earlier run's model is in its run directory)");
                    }
                }
                throw new CheckpointException(file, "is not a dpdl4j checkpoint (it does not start with DPDL4JCK)");
            }
            int version = in.readInt();
            if (version != FORMAT_VERSION) {
                throw new CheckpointException(file, "has checkpoint format " + version + "; this dpdl4j reads format "
                        + FORMAT_VERSION + (version > FORMAT_VERSION ? " (use the dpdl4j that wrote it, or a newer one)" : ""));
            }
            contentLength = in.readLong();
            in.readFully(expected);
        } catch (IOException e) {
            throw new CheckpointException(file, "cannot be read: " + e.getMessage(), e);
        }
        long actual = size - HEADER_BYTES;
        if (actual < contentLength) {
            throw new CheckpointException(file, "is truncated: its header announces " + contentLength + " bytes of content"
                    + " but the file holds " + actual + " (a copy or a save was cut off); use an intact copy, or start a new run");
        }
        if (actual > contentLength) {
            throw new CheckpointException(file, "has " + (actual - contentLength) + " bytes more than its header announces:"
                    + " the file was altered or appended to; use an intact copy");
        }
        byte[] found = digestOfContent(file);
        if (!java.util.Arrays.equals(expected, found)) {
            throw new CheckpointException(file, "failed its integrity check (SHA-256 of the content is "
                    + HexFormat.of().formatHex(found) + ", the header records " + HexFormat.of().formatHex(expected)
                    + "): the file was altered or corrupted after it was written; use an intact copy, or start a new run");
        }
        return parse(file);
    }

    private static long requireReadableFile(Path file) {
        if (Files.isDirectory(file)) {
            throw new CheckpointException(file, "is a directory, not a checkpoint file (a run directory keeps its checkpoint"
                    + " in " + FILE_NAME + ")");
        }
        try {
            return Files.size(file);
        } catch (NoSuchFileException e) {
            throw new CheckpointException(file, "does not exist; check the path (a run directory keeps its checkpoint in "
                    + FILE_NAME + ")");
        } catch (AccessDeniedException e) {
            throw new CheckpointException(file, "exists but cannot be read (permission denied)");
        } catch (IOException e) {
            throw new CheckpointException(file, "cannot be read: " + e.getMessage(), e);
        }
    }

    private static byte[] digestOfContent(Path file) {
        MessageDigest sha = sha256();
        try (InputStream in = new DigestInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16), sha)) {
            in.skipNBytes(HEADER_BYTES);
            sha.reset();
            byte[] buffer = new byte[1 << 16];
            while (in.read(buffer) >= 0) {
                // the digest stream sees every byte
            }
        } catch (IOException e) {
            throw new CheckpointException(file, "cannot be read: " + e.getMessage(), e);
        }
        return sha.digest();
    }

    /**
     * The saved settings with the accountant that priced the ledger, where it is not the default and the settings do not
     * name it (a run saved before the accountant was recorded was priced by Renyi DP): a resume then compares it like
     * any setting that changes the mechanism, and a run that does not ask for another accountant continues with it.
     */
    private static RunSettings.Saved withAccountant(RunSettings.Saved settings, Optional<LedgerJson.Saved> ledger) {
        String name = RunOptions.ACCOUNTANT.name();
        if (ledger.isEmpty() || settings.values().containsKey(name)
                || ledger.get().accountant().equals(AccountantFactory.TIGHTEST)) {
            return settings;
        }
        java.util.Map<String, String> values = new java.util.LinkedHashMap<>(settings.values());
        java.util.Map<String, ResumeRule> rules = new java.util.LinkedHashMap<>(settings.rules());
        values.put(name, ledger.get().accountant());
        rules.put(name, RunOptions.ACCOUNTANT.resumeRule());
        return new RunSettings.Saved(values, rules);
    }

    /** Opens a checkpoint past its binary header and reads its JSON metadata; the stream then stands at the state. */
    private static JsonNode readMeta(Path file, DataInputStream in) throws IOException {
        in.skipNBytes(HEADER_BYTES);
        int jsonLength = in.readInt();
        if (jsonLength < 2 || jsonLength > Files.size(file)) {
            throw new CheckpointException(file, "has a malformed header (JSON length " + jsonLength + ")");
        }
        return JSON.readTree(in.readNBytes(jsonLength));
    }

    private static DataInputStream open(Path file) throws IOException {
        return new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
    }

    private static Saved parse(Path file) {
        try (DataInputStream in = open(file)) {
            JsonNode meta = readMeta(file, in);
            String protocol = text(meta, "protocol", file);
            long completed = integer(meta, "completedSteps", file);
            long planned = integer(meta, "plannedSteps", file);
            RunSettings.Saved readSettings = RunSettings.Saved.fromJson(meta.get("settings"));
            Optional<LedgerJson.Saved> ledger = meta.hasNonNull("ledger")
                    ? Optional.of(LedgerJson.read(meta.get("ledger"))) : Optional.empty();
            RunSettings.Saved settings = withAccountant(readSettings, ledger);
            RunState.Builder state = RunState.builder();
            JsonNode numbers = meta.get("numbers");
            if (numbers != null) {
                numbers.fields().forEachRemaining(e -> state.raw(e.getKey(), e.getValue().asText()));
            }
            java.util.Map<String, String> notes = new java.util.LinkedHashMap<>();
            meta.path("notes").fields().forEachRemaining(e -> notes.put(e.getKey(), e.getValue().asText()));
            List<String> names = new ArrayList<>();
            meta.path("arrays").forEach(n -> names.add(n.asText()));
            try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
                for (String name : names) {
                    state.array(name, Nd4j.read(in));
                }
            }
            return new Saved(file, protocol, completed, planned, settings, ledger, state.build(), java.util.Map.copyOf(notes),
                    meta.path("writtenAt").asText("unknown"));
        } catch (CheckpointException e) {
            throw e;
        } catch (EOFException e) {
            throw new CheckpointException(file, "ends before its last array (truncated)", e);
        } catch (IOException | RuntimeException e) {
            if (e.getCause() instanceof EOFException) {   // Nd4j.read wraps the end of the stream
                throw new CheckpointException(file, "ends before its last array (truncated)", e);
            }
            throw new CheckpointException(file, "has content that cannot be decoded (" + e.getMessage() + ")", e);
        }
    }

    /**
     * Continues {@code run} from a saved one: checks that the checkpoint is of this run (same protocol and the same
     * identity settings), that no setting changes the mechanism unless the policy allows it, and that the run is not
     * already finished; then restores the state and continues the saved ledger (in a new segment when the mechanism
     * changed). Nothing is restored when a check fails.
     *
     * @throws CheckpointException naming every refused change and how to proceed
     */
    public static ResumeReport resume(TrainingRun run, Saved saved, ResumePolicy policy) {
        Path file = saved.file();
        List<SettingChange> changes = checkBelongs(run, saved, policy, policy.settingPrefix());
        List<SettingChange> mechanism = changes.stream().filter(c -> c.rule() == ResumeRule.MECHANISM).toList();
        if (!mechanism.isEmpty() && !policy.allowMechanismChanges()) {
            throw new CheckpointException(file, "was saved with other settings that change the private mechanism: "
                    + describe(mechanism, policy.settingPrefix()) + ". Resume with the saved values, or " + policy.howToAllow()
                    + " to continue"
                    + " under the new ones (the saved and the new steps then compose in the ledger)");
        }
        String former = saved.ledger().map(l -> run.mechanismChangeSince(l.ledger())).orElse(null);
        if (former != null && !policy.allowMechanismChanges()) {
            throw new CheckpointException(file, former + ". Start a new run, or " + policy.howToAllow() + " to continue with"
                    + " this version's mechanism (the saved and the new steps then compose in the ledger)");
        }
        boolean newSegment = !mechanism.isEmpty() || former != null;
        if (saved.completedSteps() >= run.plannedSteps()) {
            throw new CheckpointException(file, "is of a finished run: all " + saved.completedSteps() + " planned "
                    + run.stepUnit() + "s are done" + (saved.completedSteps() > run.plannedSteps()
                    ? " (more than the " + run.plannedSteps() + " planned now)" : "")
                    + "; to train longer, plan more " + run.stepUnit() + "s (" + policy.howToAllow()
                    + " when that changes the mechanism)");
        }
        restore(run, saved, newSegment);
        return new ResumeReport(saved.completedSteps(), changes, newSegment);
    }

    /**
     * Restores a finished run exactly as it was saved, without a step, so that what it releases (its model, its privacy
     * statement) can be written again, for instance after a full disk stopped the first writing. Restoring spends
     * nothing: the ledger is the saved one and no mechanism is applied. The run must plan exactly the saved number of
     * steps and have the saved settings.
     *
     * @throws CheckpointException when the checkpoint is of another run, of an unfinished run, or was saved with other
     *                             settings
     */
    public static ResumeReport reopen(TrainingRun run, Saved saved) {
        return reopen(run, saved, ResumePolicy.strict());
    }

    /** As {@link #reopen(TrainingRun, Saved)}, its messages naming settings as {@code policy} does. */
    public static ResumeReport reopen(TrainingRun run, Saved saved, ResumePolicy policy) {
        Path file = saved.file();
        List<SettingChange> changes = checkBelongs(run, saved, null, policy.settingPrefix());
        if (saved.completedSteps() != run.plannedSteps()) {
            throw new CheckpointException(file, "holds " + saved.completedSteps() + " of the " + run.plannedSteps() + " "
                    + run.stepUnit() + "s this run plans: only a finished run is reopened to write its outputs again");
        }
        if (!changes.isEmpty()) {
            throw new CheckpointException(file, "is of a finished run; its outputs can be written again from it, without"
                    + " training, only with the settings it was saved with, but these differ: "
                    + describe(changes, policy.settingPrefix())
                    + ". Give the saved values, or plan more " + run.stepUnit() + "s to train longer");
        }
        restore(run, saved, false);
        return new ResumeReport(saved.completedSteps(), changes, false);
    }

    /**
     * Whether the checkpoint records no settings (beyond the accountant its ledger names) while the run does: a run built
     * from Java that records none (or did not before its protocol recorded them), which nothing can check against this
     * run.
     */
    private static boolean unrecorded(TrainingRun run, Saved saved) {
        java.util.Set<String> recorded = new java.util.HashSet<>(saved.settings().values().keySet());
        recorded.remove(RunOptions.ACCOUNTANT.name());
        java.util.Set<String> now = new java.util.HashSet<>(run.settings().texts().keySet());
        now.remove(RunOptions.ACCOUNTANT.name());
        return recorded.isEmpty() && !now.isEmpty();
    }

    /**
     * What tells two writings of a checkpoint apart, read from its header alone (no state): its step count and when it
     * was written, as {@link Saved#completedSteps} and {@link Saved#writtenAt} give them.
     *
     * @throws CheckpointException when the file cannot be read
     */
    public static String stamp(Path file) {
        try (DataInputStream in = open(file)) {
            JsonNode meta = readMeta(file, in);
            return stamp(integer(meta, "completedSteps", file), meta.path("writtenAt").asText("unknown"));
        } catch (CheckpointException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new CheckpointException(file, "cannot be read: " + e.getMessage(), e);
        }
    }

    /** The stamp of a checkpoint read whole. */
    public static String stamp(Saved saved) {
        return stamp(saved.completedSteps(), saved.writtenAt());
    }

    private static String stamp(long completedSteps, String writtenAt) {
        return completedSteps + " steps, saved " + writtenAt;
    }

    /** Whether a change only names a setting's default on one side and leaves it unset on the other. */
    private static boolean isTheDefault(SettingChange change, String defaultText) {
        return !defaultText.isEmpty() && (change.saved() == null ? defaultText.equals(change.now())
                : change.now() == null && defaultText.equals(change.saved()));
    }

    /**
     * The checks every restore makes before it touches the run: same protocol, same identity settings, a ledger of the
     * same kind priced by the same accountant (unless the policy, null for a reopen, allows mechanism changes), and a run
     * that has not spent anything yet. Returns the settings that differ; messages name settings after
     * {@code settingPrefix}.
     */
    private static List<SettingChange> checkBelongs(TrainingRun run, Saved saved, ResumePolicy policy, String settingPrefix) {
        boolean mechanismChangesAllowed = policy != null && policy.allowMechanismChanges();
        Path file = saved.file();
        if (!saved.protocol().equals(run.protocol())) {
            throw new CheckpointException(file, "is of a " + saved.protocol() + " run, but this run is " + run.protocol()
                    + "; only a " + saved.protocol() + " run can continue it: resume it with that protocol, or start a new run");
        }
        if (unrecorded(run, saved)) {
            throw new CheckpointException(file, "records no settings (a run built from Java that recorded none), while this"
                    + " run has its settings, so nothing tells whether the checkpoint belongs to it or what its mechanism was;"
                    + " resume it as it was built (from Java, with the same description), or start a new run");
        }
        List<SettingChange> changes = run.settings().changesFrom(saved.settings());
        java.util.Map<String, String> fixed = run.settingsFixedOnResume();
        List<SettingChange> identity = changes.stream()
                .filter(c -> c.rule() == ResumeRule.IDENTITY || fixed.containsKey(c.name()) && !isTheDefault(c, fixed.get(c.name())))
                .toList();
        if (!identity.isEmpty()) {
            throw new CheckpointException(file, "belongs to another run: " + describe(identity, settingPrefix) + ". These settings define"
                    + " what the saved state is; resume with the saved values, or start a new run");
        }
        Optional<RunLedger> ledger = run.ledger();
        if (ledger.isPresent() != saved.ledger().isPresent()) {
            throw new CheckpointException(file, ledger.isPresent()
                    ? "has no privacy ledger, but this run is private" : "holds a privacy ledger, but this run is not private");
        }
        if (ledger.isPresent()) {
            var relation = ledger.get().accounting().relation();
            if (saved.ledger().get().relation() != relation) {
                throw new CheckpointException(file, "was accounted for neighbouring datasets that differ by "
                        + describe(saved.ledger().get().relation()) + ", but this run by " + describe(relation)
                        + "; the two cannot be composed in one ledger (the protected unit or the sampling scheme changed);"
                        + " start a new run");
            }
            String pricedBy = saved.ledger().get().accountant();
            String pricing = ledger.get().accounting().method();
            if (!pricedBy.equals(pricing) && !mechanismChangesAllowed) {
                // The accountant calibrates the noise and decides the budget stop: it is part of the mechanism.
                throw new CheckpointException(file, "was priced by the " + pricedBy + " accountant, but this run by " + pricing
                        + "; a run is priced as it started: resume with --accountant " + pricedBy
                        + " (AccountantFactory.named(\"" + pricedBy + "\") in code)" + (policy == null ? ""
                        : ", or " + policy.howToAllow() + " to re-price the whole ledger with the new one"));
            }
            if (!ledger.get().ledger().isEmpty()) {
                // Checked before anything is restored: the saved state over a ledger that goes on would compose
                // this run's own steps with the saved ones.
                throw new CheckpointException(file, "cannot be resumed into a run that has already taken "
                        + run.completedSteps() + " " + run.stepUnit() + "s and spent privacy; resume into a fresh run");
            }
        }
        return changes;
    }

    /** Restores the state and continues the saved ledger (in a new segment when the mechanism changed). */
    private static void restore(TrainingRun run, Saved saved, boolean newSegment) {
        try {
            run.restore(saved.state(), saved.completedSteps());
        } catch (IllegalArgumentException e) {
            throw new CheckpointException(saved.file(), "does not fit this run: " + e.getMessage(), e);
        }
        run.ledger().ifPresent(l -> l.continueFrom(saved.ledger().get().ledger(), newSegment));
    }

    private static String describe(org.dpdl4j.privacy.accounting.NeighbouringRelation relation) {
        return relation == org.dpdl4j.privacy.accounting.NeighbouringRelation.ADD_OR_REMOVE_ONE
                ? "adding or removing one unit" : "replacing one unit";
    }

    private static String describe(List<SettingChange> changes, String settingPrefix) {
        return String.join(", ", changes.stream().map(c -> c.describe(settingPrefix)).toList());
    }

    private static String text(JsonNode meta, String name, Path file) {
        JsonNode v = meta.get(name);
        if (v == null || !v.isTextual()) {
            throw new CheckpointException(file, "has a malformed header (no '" + name + "')");
        }
        return v.textValue();
    }

    private static long integer(JsonNode meta, String name, Path file) {
        JsonNode v = meta.get(name);
        if (v == null || !v.isIntegralNumber()) {
            throw new CheckpointException(file, "has a malformed header (no '" + name + "')");
        }
        return v.longValue();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    /** Counts the bytes written through it. */
    private static final class CountingOutputStream extends java.io.FilterOutputStream {
        private long count;

        CountingOutputStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }
}
