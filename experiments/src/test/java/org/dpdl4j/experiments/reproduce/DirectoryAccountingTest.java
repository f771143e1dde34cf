package org.dpdl4j.experiments.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A reproduction continues a directory only under the accountant that priced its rows. */
class DirectoryAccountingTest {
    private static final List<String> FILES = List.of("results.csv");
    private static final String FRESH = "--fresh to discard the earlier rows";

    @Test
    void rowsWrittenBeforeTheRecordWerePricedByRenyiDp(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("results.csv"), "epsilon,metric\n1,0.5\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DirectoryAccounting.claim(dir, "tightest", Map.of(), FILES, "pass --accountant %s", FRESH));
        assertTrue(e.getMessage().contains("priced by the rdp accountant") && e.getMessage().contains("pass --accountant rdp")
                && e.getMessage().contains("--fresh"), e.getMessage());
        assertTrue(Files.notExists(dir.resolve(DirectoryAccounting.FILE)), "a refused claim records nothing");
        DirectoryAccounting.claim(dir, "rdp", Map.of(), FILES, "pass --accountant %s", FRESH);
        assertEquals("rdp", Files.readString(dir.resolve(DirectoryAccounting.FILE)).strip());
    }

    @Test
    void theRecordDecidesAndForgettingItLetsAFreshRunChoose(@TempDir Path dir) throws Exception {
        DirectoryAccounting.claim(dir, "tightest", Map.of(), FILES, null, FRESH);   // an empty directory takes any accountant
        Files.writeString(dir.resolve("results.csv"), "epsilon,metric\n1,0.5\n");
        DirectoryAccounting.claim(dir, "tightest", Map.of(), FILES, null, FRESH);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DirectoryAccounting.claim(dir, "rdp", Map.of(), FILES, null, FRESH));
        assertTrue(e.getMessage().contains("priced by the tightest accountant") && e.getMessage().contains("another --out"),
                e.getMessage());
        Files.delete(dir.resolve("results.csv"));
        DirectoryAccounting.forget(dir);
        DirectoryAccounting.claim(dir, "rdp", Map.of(), FILES, null, FRESH);
        assertEquals("rdp", Files.readString(dir.resolve(DirectoryAccounting.FILE)).strip());
    }

    @Test
    void theSettingsEveryRowSharesAreRecordedAndAnotherValueIsRefused(@TempDir Path dir) throws Exception {
        Map<String, String> seeded = Map.of("noise", "seeded", "delta", "1.0E-5");
        DirectoryAccounting.claim(dir, "rdp", seeded, FILES, null, FRESH);
        assertEquals("rdp\ndelta=1.0E-5\nnoise=seeded\n", Files.readString(dir.resolve(DirectoryAccounting.FILE)));
        Files.writeString(dir.resolve("results.csv"), "epsilon,metric\n1,0.5\n");
        DirectoryAccounting.claim(dir, "rdp", seeded, FILES, null, FRESH);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DirectoryAccounting.claim(dir, "rdp", Map.of("noise", "secure", "delta", "1.0E-5"), FILES, null, FRESH));
        assertTrue(e.getMessage().contains("made with --noise seeded, but this run has --noise secure")
                && e.getMessage().contains("pass --noise seeded") && e.getMessage().contains("--fresh"), e.getMessage());
        assertEquals("rdp\ndelta=1.0E-5\nnoise=seeded\n", Files.readString(dir.resolve(DirectoryAccounting.FILE)),
                "a refused claim records nothing");
    }

    @Test
    void rowsWhoseSettingIsNotRecordedAreNotGuessed(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(DirectoryAccounting.FILE), "rdp\n");   // written by an earlier version
        DirectoryAccounting.claim(dir, "rdp", Map.of("delta", "1.0E-6"), FILES, null, FRESH);   // no rows: nothing to mix
        Files.writeString(dir.resolve(DirectoryAccounting.FILE), "rdp\n");
        Files.writeString(dir.resolve("results.csv"), "epsilon,metric\n1,0.5\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DirectoryAccounting.claim(dir, "rdp", Map.of("delta", "1.0E-6"), FILES, null, FRESH));
        assertTrue(e.getMessage().contains("does not record") && e.getMessage().contains("add the line 'delta=1.0E-6'"),
                e.getMessage());
        Files.writeString(dir.resolve(DirectoryAccounting.FILE), "rdp\ndelta=1.0E-6\n");   // the fix it names
        DirectoryAccounting.claim(dir, "rdp", Map.of("delta", "1.0E-6"), FILES, null, FRESH);
        Files.writeString(dir.resolve(DirectoryAccounting.FILE), "rdp\ndelta 1e-6\n");
        e = assertThrows(IllegalArgumentException.class,
                () -> DirectoryAccounting.claim(dir, "rdp", Map.of("delta", "1.0E-6"), FILES, null, FRESH));
        assertTrue(e.getMessage().contains("is not name=value"), e.getMessage());
    }
}
