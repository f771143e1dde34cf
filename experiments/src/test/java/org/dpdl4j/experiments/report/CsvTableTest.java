package org.dpdl4j.experiments.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvTableTest {
    @TempDir
    Path dir;

    private CsvTable read(String text) throws Exception {
        return CsvTable.read(Files.writeString(dir.resolve("t.csv"), text));
    }

    private IllegalArgumentException rejects(String text) throws Exception {
        Path file = Files.writeString(dir.resolve("bad.csv"), text);
        return assertThrows(IllegalArgumentException.class, () -> CsvTable.read(file));
    }

    @Test
    void readsCrlfQuotedFieldsAndMissingValues() throws Exception {
        CsvTable t = read("a,b,c\r\n1,\"x,\"\"y\"\"\",\r\n2,,\"\"\r\n");
        assertEquals(List.of("a", "b", "c"), t.header());
        assertEquals(Arrays.asList("1", "x,\"y\"", null), t.rows().get(0));
        assertEquals(Arrays.asList("2", null, ""), t.rows().get(1));
        double[] a = t.doubles("a");
        assertArrayEquals(new double[] {1, 2}, a);
    }

    @Test
    void lastLineWithoutNewlineIsARow() throws Exception {
        assertEquals(2, read("x\n1\n2").size());
    }

    @Test
    void missingNumbersReadAsNaN() throws Exception {
        assertTrue(Double.isNaN(read("x,y\n1,\n").doubles("y")[0]));
    }

    @Test
    void errorsNameTheLine() throws Exception {
        IllegalArgumentException count = rejects("a,b\n1,2\n3\n");
        assertTrue(count.getMessage().contains("line 3") && count.getMessage().contains("1 fields"), count.getMessage());
        IllegalArgumentException open = rejects("a\n\"never closed\n");
        assertTrue(open.getMessage().contains("line 2") && open.getMessage().contains("never closed"),
                open.getMessage());
        IllegalArgumentException after = rejects("a,b\n\"x\"y,2\n");
        assertTrue(after.getMessage().contains("line 2") && after.getMessage().contains("after a closing quote"),
                after.getMessage());
        IllegalArgumentException inner = rejects("a\nx\"y\n");
        assertTrue(inner.getMessage().contains("line 2"), inner.getMessage());
        IllegalArgumentException number = assertThrows(IllegalArgumentException.class,
                () -> read("a\n1\nabc\n").doubles("a"));
        assertTrue(number.getMessage().contains("data row 2") && number.getMessage().contains("'abc'"),
                number.getMessage());
        IllegalArgumentException column = assertThrows(IllegalArgumentException.class, () -> read("a\n1\n").column("b"));
        assertTrue(column.getMessage().contains("no column 'b'") && column.getMessage().contains("[a]"));
        assertTrue(rejects("").getMessage().contains("empty"));
    }

    @Test
    void lineNumbersCountLineBreaksInsideQuotes() throws Exception {
        IllegalArgumentException e = rejects("a,b\n\"multi\nline\",1\n2\n");
        assertTrue(e.getMessage().contains("line 4"), e.getMessage());
    }
}
