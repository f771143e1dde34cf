package org.dpdl4j.experiments.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dpdl4j.experiments.report.CsvTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Collecting finished audits: one row per audit folder, grouped by kind, the CSV and the plot written. */
class AuditCollectionTest {

    private static void audit(Path dir, String run, String auditor, String canary, int canaries, double epsilon,
                              double lower) throws Exception {
        Path d = Files.createDirectories(dir.resolve(run));
        Files.writeString(d.resolve("audit.json"), "{\"epsilon\": " + epsilon + ", \"epsilon_lower\": " + lower
                + ", \"canaries\": " + canaries + ", \"steps\": 210, \"sampling_rate\": 0.0238}");
        Files.writeString(d.resolve("config.json"), "{\"config\": {\"dataset\": \"mnist\", \"auditor\": \"" + auditor
                + "\", \"canary_kind\": \"" + canary + "\", \"canaries\": " + canaries + "}}");
    }

    @Test
    void everyAuditFolderBecomesARowAndTheKindsBecomeLinesOfThePlot(@TempDir Path dir) throws Exception {
        audit(dir, "b-eps8", "white-box-lr", "dirac", 1000, 8, 1.6);
        audit(dir, "a-eps2", "white-box-lr", "dirac", 1000, 2, 0.1);
        audit(dir, "c-eps8-black", "black-box", "random", 1000, 8, 0);
        Files.createDirectories(dir.resolve("not-an-audit"));
        List<AuditCollection.Row> rows = AuditCollection.summarize(dir);
        assertEquals(List.of("c-eps8-black", "a-eps2", "b-eps8"), rows.stream().map(AuditCollection.Row::run).toList(),
                "by kind, then by claimed epsilon");
        assertEquals("mnist black-box m=1000", rows.get(0).kind(), "a black-box audit plants no gradient canaries");
        assertEquals("mnist white-box-lr dirac m=1000", rows.get(1).kind());
        CsvTable csv = CsvTable.read(dir.resolve("audits.csv"));
        assertEquals(3, csv.size());
        assertEquals(1.6, csv.doubles("epsilon_lower")[2], 1e-12);
        assertTrue(Files.size(dir.resolve("epsilon-lower.png")) > 1000);
    }

    @Test
    void aFolderWithoutAuditsOrAnAuditWithoutItsConfigurationIsRefused(@TempDir Path dir) throws Exception {
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> AuditCollection.summarize(dir));
        assertTrue(none.getMessage().contains("holds no audit"), none.getMessage());
        audit(dir, "x", "white-box", "random", 10, 1, 0);
        Files.delete(dir.resolve("x").resolve("config.json"));
        IllegalArgumentException partial = assertThrows(IllegalArgumentException.class, () -> AuditCollection.summarize(dir));
        assertTrue(partial.getMessage().contains("no config.json"), partial.getMessage());
        // a field the audit did not write is not read as 0 (an epsilon of 0 would claim more than was audited)
        audit(dir, "x", "white-box", "random", 10, 1, 0);
        Files.writeString(dir.resolve("x").resolve("audit.json"), "{\"epsilon_lower\": 0, \"canaries\": 10, \"steps\": 210,"
                + " \"sampling_rate\": 0.0238}");
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> AuditCollection.summarize(dir));
        assertTrue(missing.getMessage().contains("'epsilon' is missing") && missing.getMessage().contains("rerun that audit"),
                missing.getMessage());
    }
}
