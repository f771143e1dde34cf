package org.dpdl4j.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.security.MessageDigest;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.EpsilonBound;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.runtime.options.ResumeRule;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.runtime.options.SettingChange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A checkpoint is read back exactly or refused with a message naming the file and the problem; saves are atomic. */
class RunCheckpointTest {
    /** Magic (8), format (4), content length (8), SHA-256 (32). */
    private static final int HEADER = 52;

    @TempDir
    Path dir;

    private Path saved(ToyRun run, long steps) {
        run.run(steps);
        Path file = dir.resolve(RunCheckpoint.FILE_NAME);
        RunCheckpoint.save(run, file);
        return file;
    }

    private static CheckpointException refusal(Path file) {
        CheckpointException e = assertThrows(CheckpointException.class, () -> RunCheckpoint.read(file));
        assertEquals(file, e.file());
        assertTrue(e.getMessage().contains(file.toString()), "names the file: " + e.getMessage());
        return e;
    }

    private List<Path> directoryListing() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }

    @Test
    void aCheckpointReadsBackEverythingItSaved() {
        ToyRun run = ToyRun.of(10);
        Path file = saved(run, 4);
        RunCheckpoint.Saved s = RunCheckpoint.read(file);
        assertEquals(file, s.file());
        assertEquals(ToyRun.PROTOCOL, s.protocol());
        assertEquals(4, s.completedSteps());
        assertEquals(10, s.plannedSteps());
        assertFalse(s.finished());
        assertEquals(run.settings().saved(), s.settings());
        RunLedger ledger = run.ledger().orElseThrow();
        assertEquals(ledger.ledger(), s.ledger().orElseThrow().ledger());
        assertEquals(ledger.budget(), s.ledger().orElseThrow().budget());
        assertArrayEquals(run.parameters().toDoubleVector(), s.state().array("params").toDoubleVector(), 0.0);
        assertEquals(run.lastNoise(), s.state().doubleValue("noise"), 0.0, "numbers are exact");
        assertEquals(4, s.state().longValue("steps"));

        ToyRun unprivate = new ToyRun(ToyRun.settings(10), 10);
        unprivate.run(2);
        RunCheckpoint.save(unprivate, file);
        assertTrue(RunCheckpoint.read(file).ledger().isEmpty(), "a run without a guarantee saves no ledger");
    }

    /** The header's stamp matches the whole read, and tells a later writing apart (what a resume checks after its claim). */
    @Test
    void aStampReadFromTheHeaderTellsWritingsApart() {
        ToyRun run = ToyRun.of(10);
        Path file = saved(run, 4);
        RunCheckpoint.Saved first = RunCheckpoint.read(file);
        assertEquals(RunCheckpoint.stamp(first), RunCheckpoint.stamp(file));
        run.run(2);
        RunCheckpoint.save(run, file);
        assertTrue(!RunCheckpoint.stamp(file).equals(RunCheckpoint.stamp(first)), RunCheckpoint.stamp(file));
        assertTrue(RunCheckpoint.stamp(file).startsWith("6 steps, saved "), RunCheckpoint.stamp(file));
    }

    @Test
    void everyAlteredByteIsRefusedSayingWhatIsWrong() throws IOException {
        Path file = saved(ToyRun.of(10), 3);
        byte[] good = Files.readAllBytes(file);
        Path altered = dir.resolve("altered.bin");
        for (int i = 0; i < good.length; i++) {
            byte[] bytes = good.clone();
            bytes[i] ^= (byte) 0x5A;
            Files.write(altered, bytes);
            String m = refusal(altered).getMessage();
            String expected = i < 8 ? "not a dpdl4j checkpoint" : i < 12 ? "checkpoint format" : i < 20 ? "header announces"
                    : "failed its integrity check";
            assertTrue(m.contains(expected), "byte " + i + " of " + good.length + ": " + m);
        }
        Files.write(altered, good);
        assertEquals(3, RunCheckpoint.read(altered).completedSteps(), "the unaltered copy reads");
        byte[] appended = Arrays.copyOf(good, good.length + 5);
        Files.write(altered, appended);
        assertTrue(refusal(altered).getMessage().contains("5 bytes more than its header announces"));
    }

    @Test
    void aTruncatedFileIsRefusedAsTruncated() throws IOException {
        Path file = saved(ToyRun.of(10), 3);
        byte[] good = Files.readAllBytes(file);
        Path cut = dir.resolve("cut.bin");
        for (int length : new int[]{0, 1, 8, HEADER - 1, HEADER, HEADER + 3, HEADER + 40, good.length / 2, good.length - 1}) {
            Files.write(cut, Arrays.copyOf(good, length));
            String m = refusal(cut).getMessage();
            assertTrue(length < HEADER ? m.contains("too short") : m.contains("is truncated"), length + " bytes: " + m);
        }
    }

    /**
     * Rewrites the JSON header of a checkpoint and seals it again (length and SHA-256), as a writer with a bug would:
     * the file passes the integrity check, so what is wrong must be found in its content.
     */
    private static void rewriteHeader(Path file, Consumer<ObjectNode> change) throws Exception {
        ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file));
        byte[] front = new byte[12];
        in.get(front);
        in.position(HEADER);
        byte[] json = new byte[in.getInt()];
        in.get(json);
        byte[] arrays = new byte[in.remaining()];
        in.get(arrays);
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode meta = (ObjectNode) mapper.readTree(json);
        change.accept(meta);
        byte[] newJson = mapper.writeValueAsBytes(meta);
        ByteBuffer content = ByteBuffer.allocate(4 + newJson.length + arrays.length).putInt(newJson.length).put(newJson).put(arrays);
        byte[] sha = MessageDigest.getInstance("SHA-256").digest(content.array());
        Files.write(file, ByteBuffer.allocate(HEADER + content.capacity()).put(front).putLong(content.capacity()).put(sha)
                .put(content.array()).array());
    }

    @Test
    void aSealedButMalformedCheckpointIsRefusedNamingWhatIsMalformed() throws Exception {
        Path file = saved(ToyRun.of(10), 3);
        byte[] good = Files.readAllBytes(file);
        rewriteHeader(file, meta -> { });
        assertEquals(3, RunCheckpoint.read(file).completedSteps(), "resealing alone changes nothing");
        List<Object[]> cases = List.of(
                new Object[]{(Consumer<ObjectNode>) m -> m.remove("protocol"), "no 'protocol'"},
                new Object[]{(Consumer<ObjectNode>) m -> m.put("completedSteps", "three"), "no 'completedSteps'"},
                new Object[]{(Consumer<ObjectNode>) m -> ((ObjectNode) m.get("ledger").get("entries").get(0)).remove("count"),
                        "ledger entry 0: missing field 'count'"},
                new Object[]{(Consumer<ObjectNode>) m -> ((ObjectNode) m.get("settings").get("seed")).put("resume", "NEVER"),
                        "'seed'"},
                new Object[]{(Consumer<ObjectNode>) m -> ((ArrayNode) m.get("arrays")).add("moments"), "truncated"});
        for (Object[] c : cases) {
            Files.write(file, good);
            @SuppressWarnings("unchecked")
            Consumer<ObjectNode> change = (Consumer<ObjectNode>) c[0];
            rewriteHeader(file, change);
            String m = refusal(file).getMessage();
            assertTrue(m.contains((String) c[1]), c[1] + ": " + m);
        }
    }

    @Test
    void aDirectoryAMissingFileAndAFormatOneFileAreRefusedClearly() throws IOException {
        assertTrue(refusal(dir).getMessage().contains("is a directory"));
        assertTrue(refusal(dir.resolve("nothing.bin")).getMessage().contains("does not exist"));
        for (int magic : new int[]{0x44504443, 0x44504643}) {
            Path legacy = dir.resolve("legacy-" + magic + ".bin");
            try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(legacy))) {
                out.writeInt(magic);
                out.writeInt(1);
                out.write(new byte[200]);
            }
            String m = refusal(legacy).getMessage();
            assertTrue(m.contains("format 1") && m.contains("ledger"), m);
        }
    }

    @Test
    void aDivergedRunIsNotSavedAndThePreviousCheckpointStays() throws IOException {
        ToyRun run = ToyRun.of(10);
        Path file = saved(run, 3);
        byte[] good = Files.readAllBytes(file);
        run.step();
        run.diverge();
        TrainingDivergedException e = assertThrows(TrainingDivergedException.class, () -> RunCheckpoint.save(run, file));
        assertTrue(e.getMessage().contains("not a finite number"), e.getMessage());
        assertArrayEquals(good, Files.readAllBytes(file), "the previous checkpoint is untouched");
        assertEquals(3, RunCheckpoint.read(file).completedSteps());
        assertEquals(List.of(file), directoryListing(), "no temporary file is left behind");
    }

    /**
     * Whether a run stops is decided by its parameters (what its released steps made), not by the loss of a private
     * batch alone, which one example the model gives no probability makes infinite.
     */
    @Test
    void anInfiniteBatchLossWithFiniteParametersDoesNotStopTheRunButNonFiniteParametersDo() {
        ToyRun run = ToyRun.of(10);
        run.step();
        run.measureLoss(Double.POSITIVE_INFINITY);
        run.step();
        assertEquals(2, run.completedSteps(), "an infinite loss alone does not stop the run");
        assertEquals(Double.POSITIVE_INFINITY, run.lastLoss());
        run.diverge();
        TrainingDivergedException e = assertThrows(TrainingDivergedException.class, run::step);
        assertTrue(e.getMessage().contains("loss = Infinity and a parameter is not a finite number"), e.getMessage());
    }

    @Test
    void aSaveThatFailsLeavesNoTemporaryFile() throws IOException {
        Path occupied = dir.resolve("occupied");
        Files.createDirectories(occupied.resolve("inside"));
        ToyRun run = ToyRun.of(10);
        run.run(2);
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> RunCheckpoint.save(run, occupied));
        assertTrue(e.getMessage().contains(occupied.toString()), e.getMessage());
        assertEquals(List.of(occupied), directoryListing());
        // Saving again over a good checkpoint replaces it whole.
        Path file = saved(run, 1);
        assertEquals(3, RunCheckpoint.read(file).completedSteps());
        run.run(1);
        RunCheckpoint.save(run, file);
        assertEquals(List.of(file, occupied), directoryListing());
        assertEquals(4, RunCheckpoint.read(file).completedSteps());
    }

    @Test
    void identityChangesAreRefusedAndNothingIsRestored() {
        Path file = saved(ToyRun.of(10), 4);
        ToyRun other = new ToyRun(ToyRun.settings(10).with(RunOptions.SEED, 4L), 10, NeighbouringRelation.REPLACE_ONE);
        double[] before = other.parameters().toDoubleVector();
        for (ResumePolicy policy : List.of(ResumePolicy.strict(), ResumePolicy.allowingChanges())) {
            CheckpointException e = assertThrows(CheckpointException.class,
                    () -> RunCheckpoint.resume(other, RunCheckpoint.read(file), policy));
            assertTrue(e.getMessage().contains("belongs to another run") && e.getMessage().contains("seed: 3 -> 4"), e.getMessage());
        }
        assertEquals(0, other.completedSteps());
        assertArrayEquals(before, other.parameters().toDoubleVector(), 0.0);
        assertTrue(other.ledger().orElseThrow().ledger().isEmpty());
    }

    @Test
    void mechanismChangesNeedThePolicyAndOpenASegment() {
        ToyRun first = ToyRun.of(10);
        Path file = saved(first, 4);
        PrivacyLedger earlier = first.ledger().orElseThrow().ledger();
        ToyRun longer = new ToyRun(ToyRun.settings(20), 20, NeighbouringRelation.REPLACE_ONE);
        CheckpointException strict = assertThrows(CheckpointException.class,
                () -> RunCheckpoint.resume(longer, RunCheckpoint.read(file), ResumePolicy.strict()));
        assertTrue(strict.getMessage().contains("rounds: 10 -> 20") && strict.getMessage().contains("ResumePolicy.allowingChanges()"),
                strict.getMessage());
        assertEquals(0, longer.completedSteps());

        ResumeReport report = RunCheckpoint.resume(longer, RunCheckpoint.read(file), ResumePolicy.allowingChanges());
        assertTrue(report.newSegment());
        assertEquals(List.of(new SettingChange("rounds", "10", "20", ResumeRule.MECHANISM)), report.changes());
        assertEquals(earlier, longer.ledger().orElseThrow().ledger(), "the saved ledger continues");
        assertArrayEquals(first.parameters().toDoubleVector(), longer.parameters().toDoubleVector(), 0.0);
        longer.step();
        PrivacyLedger now = longer.ledger().orElseThrow().ledger();
        assertEquals(2, now.entries().size());
        assertEquals(1, now.lastSegment());
        assertEquals(4, now.entries().get(0).count());
        assertEquals(1, now.entries().get(1).count());
    }

    @Test
    void freeChangesAreAllowedAndKeepTheSegment() {
        Path file = saved(ToyRun.of(10), 4);
        ToyRun run = new ToyRun(ToyRun.settings(10).with(RunOptions.LEARNING_RATE, 0.25), 10, NeighbouringRelation.REPLACE_ONE);
        ResumeReport report = RunCheckpoint.resume(run, RunCheckpoint.read(file), ResumePolicy.strict());
        assertFalse(report.newSegment());
        assertEquals(List.of(new SettingChange("lr", "0.5", "0.25", ResumeRule.FREE)), report.changes());
        run.step();
        assertEquals(5, run.ledger().orElseThrow().ledger().entries().get(0).count());
    }

    @Test
    void aFinishedRunIsNotResumed() {
        Path file = saved(ToyRun.of(10), 10);
        assertTrue(RunCheckpoint.read(file).finished());
        CheckpointException e = assertThrows(CheckpointException.class,
                () -> RunCheckpoint.resume(ToyRun.of(10), RunCheckpoint.read(file), ResumePolicy.allowingChanges()));
        assertTrue(e.getMessage().contains("finished") && e.getMessage().contains("10 planned steps"), e.getMessage());
    }

    @Test
    void ledgersOfAnotherRelationOrOfAnotherKindDoNotCompose() {
        Path file = saved(ToyRun.of(10), 4);
        ToyRun addRemove = new ToyRun(ToyRun.settings(10), 10, NeighbouringRelation.ADD_OR_REMOVE_ONE);
        CheckpointException relation = assertThrows(CheckpointException.class,
                () -> RunCheckpoint.resume(addRemove, RunCheckpoint.read(file), ResumePolicy.allowingChanges()));
        assertTrue(relation.getMessage().contains("cannot be composed"), relation.getMessage());
        assertEquals(0, addRemove.completedSteps());
        CheckpointException unprivate = assertThrows(CheckpointException.class,
                () -> RunCheckpoint.resume(new ToyRun(ToyRun.settings(10), 10), RunCheckpoint.read(file), ResumePolicy.strict()));
        assertTrue(unprivate.getMessage().contains("not private"), unprivate.getMessage());
    }

    @Test
    void aRunThatHasAlreadySpentIsNotOverwritten() {
        Path file = saved(ToyRun.of(10), 4);
        ToyRun busy = ToyRun.of(10);
        busy.run(2);
        double[] params = busy.parameters().toDoubleVector();
        PrivacyLedger ledger = busy.ledger().orElseThrow().ledger();
        CheckpointException e = assertThrows(CheckpointException.class,
                () -> RunCheckpoint.resume(busy, RunCheckpoint.read(file), ResumePolicy.strict()));
        assertTrue(e.getMessage().contains("fresh run"), e.getMessage());
        // Restoring the model and then refusing the ledger would leave a model of 4 steps with a ledger of 2.
        assertEquals(2, busy.completedSteps());
        assertArrayEquals(params, busy.parameters().toDoubleVector(), 0.0);
        assertEquals(ledger, busy.ledger().orElseThrow().ledger());
    }

    /**
     * The accountant is part of the mechanism: a checkpoint saved before it was recorded (priced by Renyi DP, the only
     * pricing then) resumes only into a run priced by Renyi DP, never silently re-priced by the default.
     */
    @Test
    void aResumedRunIsPricedAsItStartedAndAnUnrecordedAccountantIsRenyiDp() throws Exception {
        Path file = saved(ToyRun.of(10), 4);
        assertEquals(AccountantFactory.TIGHTEST, RunCheckpoint.read(file).ledger().orElseThrow().accountant());
        rewriteHeader(file, m -> ((ObjectNode) m.get("ledger")).remove("accountant")); // as saved before the record
        RunCheckpoint.Saved old = RunCheckpoint.read(file);
        assertEquals(AccountantFactory.RDP, old.ledger().orElseThrow().accountant());
        assertEquals(AccountantFactory.RDP, old.settings().values().get(RunOptions.ACCOUNTANT.name()));

        ToyRun repriced = ToyRun.of(10);
        CheckpointException e = assertThrows(CheckpointException.class,
                () -> RunCheckpoint.resume(repriced, old, ResumePolicy.strict()));
        assertTrue(e.getMessage().contains("priced by the rdp accountant, but this run by tightest")
                && e.getMessage().contains("resume with --accountant rdp"), e.getMessage());
        assertEquals(0, repriced.completedSteps());

        // settings that claim the saved accountant do not help a run priced by another one
        ToyRun claiming = new ToyRun(ToyRun.settings(10).withText(RunOptions.ACCOUNTANT, "rdp"), 10, NeighbouringRelation.REPLACE_ONE);
        CheckpointException priced = assertThrows(CheckpointException.class,
                () -> RunCheckpoint.resume(claiming, old, ResumePolicy.strict()));
        assertTrue(priced.getMessage().contains("priced by the rdp accountant, but this run by tightest")
                && priced.getMessage().contains("--accountant rdp"), priced.getMessage());

        RunSettings rdpSettings = ToyRun.settings(10).withText(RunOptions.ACCOUNTANT, "rdp");
        ToyRun same = new ToyRun(rdpSettings, 10, NeighbouringRelation.REPLACE_ONE, RunOptions.accountants(rdpSettings));
        ResumeReport report = RunCheckpoint.resume(same, old, ResumePolicy.strict());
        assertTrue(report.changes().isEmpty(), report.changes().toString());
        same.step();
        RunLedger ledger = same.ledger().orElseThrow();
        EpsilonBound spent = ledger.spent();
        double renyi = new LedgerAccounting(AccountantFactory.renyi(), NeighbouringRelation.REPLACE_ONE)
                .bound(ledger.ledger(), 1e-5, Conversion.STANDARD).epsilon();
        assertEquals(renyi, spent.epsilon(), 0.0);
        assertEquals("zcdp", spent.accountant(), "five Gaussian releases by Renyi DP: the exact conversion of the linear curve");
        double exact = LedgerAccounting.standard(NeighbouringRelation.REPLACE_ONE).bound(ledger.ledger(), 1e-5, Conversion.STANDARD)
                .epsilon();
        assertTrue(exact < spent.epsilon(), "the default would have re-priced it lower: " + exact + " vs " + spent.epsilon());
        // and it saves its accountant again
        RunCheckpoint.save(same, file);
        assertEquals(AccountantFactory.RDP, RunCheckpoint.read(file).ledger().orElseThrow().accountant());
    }
}
