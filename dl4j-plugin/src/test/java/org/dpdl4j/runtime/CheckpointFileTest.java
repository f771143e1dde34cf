package org.dpdl4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointFileTest {
    private static final CheckpointFile FORMAT = new CheckpointFile("test", 0x54455354, 3);

    @TempDir
    Path dir;

    @Test
    void roundTripRestoresRoundAndState() {
        Path file = dir.resolve("sub/run.ckpt");
        FORMAT.save(file, 42, 7, "DECOR", out -> out.writeUTF("state"));
        assertFalse(Files.exists(dir.resolve("sub/run.ckpt.tmp")), "the temporary file is moved into place");
        AtomicReference<String> state = new AtomicReference<>();
        AtomicLong at = new AtomicLong();
        long round = FORMAT.restore(file, 7, "DECOR", (in, r) -> {
            state.set(in.readUTF());
            at.set(r);
        });
        assertEquals(42, round);
        assertEquals(42, at.get());
        assertEquals("state", state.get());
    }

    @Test
    void otherKindsSeedsAndAlgorithmsAreRefusedByName() {
        Path file = dir.resolve("run.ckpt");
        FORMAT.save(file, 1, 7, "DECOR", out -> { });
        var other = new CheckpointFile("other", 0x4F544852, 3);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> other.restore(file, 7, "DECOR", (in, r) -> { }))
                .getMessage().contains("not a dpdl4j other checkpoint"));
        var newer = new CheckpointFile("test", 0x54455354, 4);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> newer.restore(file, 7, "DECOR", (in, r) -> { }))
                .getMessage().contains("format 3"));
        String seed = assertThrows(IllegalArgumentException.class, () -> FORMAT.restore(file, 8, "DECOR", (in, r) -> { }))
                .getMessage();
        assertTrue(seed.contains("seed 7") && seed.contains("seed 8"), seed);
        assertThrows(IllegalArgumentException.class, () -> FORMAT.restore(file, 7, "LDP", (in, r) -> { }));
    }

    @Test
    void aTruncatedFileIsReportedAsCorrupt() throws Exception {
        Path file = dir.resolve("run.ckpt");
        FORMAT.save(file, 1, 7, "DECOR", out -> out.writeLong(5));
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 3));
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> FORMAT.restore(file, 7, "DECOR", (in, r) -> in.readLong()));
        assertTrue(e.getMessage().contains("truncated or corrupt"), e.getMessage());
    }
}
