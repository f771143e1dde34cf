package org.dpdl4j.experiments.reproduce;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EarlierRowsTest {
    @TempDir
    Path dir;

    @Test
    void findsARowByItsKeyComparingNumbersAsNumbersAndIgnoresATornLastLine() throws IOException {
        Path file = dir.resolve("results.csv");
        Files.writeString(file, "epsilon,seed,setting,test_accuracy\n3.0,1,tanh batch=512,0.981\n3.0,2,tanh batch=512,0.979\n"
                + "Infinity,1,non-private,0.99\n8.0,1,tanh batch=5");
        EarlierRows rows = EarlierRows.of(file);
        List<String> row = rows.find(Map.of("epsilon", 3, "seed", 2, "setting", "tanh batch=512")).orElseThrow();
        assertEquals("0.979", rows.value(row, "test_accuracy"));
        assertEquals("0.99", rows.value(rows.find(Map.of("epsilon", Double.POSITIVE_INFINITY, "seed", 1)).orElseThrow(), "test_accuracy"));
        assertTrue(rows.find(Map.of("epsilon", 3, "seed", 3)).isEmpty());
        assertTrue(rows.find(Map.of("epsilon", 8)).isEmpty(), "the torn last line is not a finished run");
        assertTrue(rows.find(Map.of("epsilon", 3, "no_such_column", 1)).isEmpty());
    }

    @Test
    void aColumnAnOlderFileLacksReadsAsItsDefault() throws IOException {
        Path file = dir.resolve("tuning.csv");
        Files.writeString(file, "epsilon,lr,validation_accuracy\n3.0,1.0,0.975\n");
        EarlierRows older = EarlierRows.of(file);
        assertTrue(older.find(Map.of("lr", 1.0, "ema", 0.0)).isEmpty(), "without a default the column is unknown");
        EarlierRows rows = older.withDefault("ema", "0.0");
        List<String> row = rows.find(Map.of("lr", 1.0, "ema", 0)).orElseThrow();
        assertTrue(rows.find(Map.of("lr", 1.0, "ema", 0.999)).isEmpty());
        assertEquals(List.of("3.0", "1.0", "0.0", "0.975"), rows.inColumns(List.of("epsilon", "lr", "ema", "validation_accuracy"), row));
        assertThrows(IllegalArgumentException.class, () -> rows.value(row, "momentum"));

        Path newer = dir.resolve("newer.csv");
        Files.writeString(newer, "epsilon,lr,ema,validation_accuracy\n3.0,1.0,0.999,0.978\n");
        EarlierRows written = EarlierRows.of(newer).withDefault("ema", "0.0");
        assertTrue(written.find(Map.of("lr", 1.0, "ema", 0)).isEmpty(), "a column the file has is read, not defaulted");
        assertEquals("0.978", written.value(written.find(Map.of("ema", 0.999)).orElseThrow(), "validation_accuracy"));
    }

    @Test
    void aMissingFileHasNoRows() {
        assertTrue(EarlierRows.of(dir.resolve("absent.csv")).find(Map.of("epsilon", 1)).isEmpty());
        assertTrue(EarlierRows.none().find(Map.of()).isEmpty());
    }

    /** A resume keeps the rows it reuses on disk until its new file is whole; a resume stopped midway loses none. */
    @Test
    void keptRowsSurviveAResumeThatStopsBeforeWritingThemAgain() throws IOException {
        Path file = dir.resolve("tuning.csv");
        Files.writeString(file, "epsilon,lr,validation_accuracy\n1.0,0.5,0.91\n3.0,1.0,0.975\n");
        EarlierRows first = EarlierRows.keep(file, Map.of("ema", "0.0"));
        assertTrue(!Files.exists(file) && Files.exists(EarlierRows.kept(file)), "moved aside, not deleted");
        assertEquals("0.975", first.value(first.find(Map.of("epsilon", 3, "ema", 0)).orElseThrow(), "validation_accuracy"));

        // the resume wrote one reused row and one newly trained row, then stopped
        Files.writeString(file, "epsilon,lr,ema,validation_accuracy\n1.0,0.5,0.0,0.91\n2.0,0.5,0.999,0.95\n");
        EarlierRows second = EarlierRows.keep(file, Map.of("ema", "0.0"));
        assertTrue(!Files.exists(file), "the partial file joined the kept rows");
        assertEquals(List.of("epsilon,lr,ema,validation_accuracy", "1.0,0.5,0.0,0.91", "3.0,1.0,0.0,0.975", "2.0,0.5,0.999,0.95"),
                Files.readAllLines(EarlierRows.kept(file)), "every row once, in the newer columns");
        assertEquals("0.95", second.value(second.find(Map.of("epsilon", 2, "ema", 0.999)).orElseThrow(), "validation_accuracy"));
        assertEquals("0.975", second.value(second.find(Map.of("epsilon", 3)).orElseThrow(), "validation_accuracy"));

        // a resume that stopped before its header was whole left a file with no row: the kept rows stay as they are
        Files.writeString(file, "epsilon,lr,e");
        EarlierRows third = EarlierRows.keep(file, Map.of("ema", "0.0"));
        assertTrue(!Files.exists(file));
        assertEquals(4, Files.readAllLines(EarlierRows.kept(file)).size());
        assertEquals("0.95", third.value(third.find(Map.of("epsilon", 2)).orElseThrow(), "validation_accuracy"));

        EarlierRows.discardKept(file);
        assertTrue(!Files.exists(EarlierRows.kept(file)));
        assertTrue(EarlierRows.keep(file, Map.of()).find(Map.of()).isEmpty(), "nothing to keep: no rows");
    }

    @Test
    void aFreshRunSetsTheEarlierRowsAsideUntilItsFilesAreWhole() throws IOException {
        Path file = dir.resolve("results.csv");
        Files.writeString(file, "epsilon,metric\n1,0.5\n");
        java.io.StringWriter said = new java.io.StringWriter();
        EarlierRows.setAside(file, new java.io.PrintWriter(said, true));
        assertTrue(said.toString().startsWith("Replacing the earlier " + file), said.toString());
        assertTrue(Files.notExists(file), "the fresh run starts from no rows");
        assertEquals("epsilon,metric\n1,0.5\n", Files.readString(EarlierRows.setAsidePath(file)));
        // it crashed after a partial row; a second fresh run keeps the last whole results, not the partial ones
        Files.writeString(file, "epsilon,metric\n2,0.");
        EarlierRows.setAside(file, new java.io.PrintWriter(said, true));
        assertTrue(said.toString().contains("Discarding the partial " + file), said.toString());
        assertTrue(Files.notExists(file));
        assertEquals("epsilon,metric\n1,0.5\n", Files.readString(EarlierRows.setAsidePath(file)));
        EarlierRows.discardSetAside(file);
        assertTrue(Files.notExists(EarlierRows.setAsidePath(file)));
    }
}
