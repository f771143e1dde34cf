package org.dpdl4j.experiments.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TerminalTableTest {

    private static TerminalTable results() {
        return new TerminalTable("Decor on MNIST", "algorithm", "epsilon", "accuracy", "rounds")
                .addRow("Decor", 1.0, 0.91234, 1000)
                .addRow("LDP baseline", 10.0, 0.8, 1000)
                .addRow("CDP", 1e-5, null, 12);
    }

    @Test
    void rendersAlignedTextWithNumbersOnTheRight() {
        String expected = """
                Decor on MNIST
                algorithm       epsilon  accuracy  rounds
                ------------  ---------  --------  ------
                Decor            1.0000    0.9123    1000
                LDP baseline    10.0000    0.8000    1000
                CDP           1.000e-05         -      12
                """;
        assertEquals(expected, results().render());
    }

    @Test
    void rendersTheSameTableAsAlignedMarkdown() {
        String expected = """
                **Decor on MNIST**

                | algorithm    |   epsilon | accuracy | rounds |
                | :----------- | --------: | -------: | -----: |
                | Decor        |    1.0000 |   0.9123 |   1000 |
                | LDP baseline |   10.0000 |   0.8000 |   1000 |
                | CDP          | 1.000e-05 |        - |     12 |
                """;
        assertEquals(expected, results().toMarkdown());
    }

    @Test
    void columnFormatsApplyToIntegersAndDoubles() {
        TerminalTable table = new TerminalTable("", "n", "eps").format("eps", "%.1f").format("n", "%,d")
                .addRow(1234567, 2).addRow(3L, 0.25);
        assertEquals("""
                        n  eps
                ---------  ---
                1,234,567  2.0
                        3  0.3
                """, table.render());
    }

    @Test
    void pipesAreEscapedInMarkdownAndMixedColumnsAreLeftAligned() {
        TerminalTable table = new TerminalTable("", "graph", "value").addRow("a|b", 1).addRow("ring", "n/a");
        assertEquals("""
                | graph | value |
                | :---- | :---- |
                | a\\|b  | 1     |
                | ring  | n/a   |
                """, table.toMarkdown());
    }

    @Test
    void wideCharactersCountAsOneColumnEach() {
        String text = new TerminalTable("", "ε", "δ").addRow("ε≈1.84", 1e-5).render();
        assertEquals("""
                ε               δ
                ------  ---------
                ε≈1.84  1.000e-05
                """, text);
    }

    @Test
    void specialNumbersAndBadInput() {
        assertEquals("NaN", TerminalTable.number(Double.NaN));
        assertEquals("-inf", TerminalTable.number(Double.NEGATIVE_INFINITY));
        assertEquals("0.0000", TerminalTable.number(0.0));
        assertEquals("1.235e+07", TerminalTable.number(12345678.0));
        IllegalArgumentException count = assertThrows(IllegalArgumentException.class,
                () -> new TerminalTable("t", "a", "b").addRow(1));
        assertTrue(count.getMessage().contains("1 cells") && count.getMessage().contains("2 columns"));
        IllegalArgumentException column = assertThrows(IllegalArgumentException.class,
                () -> new TerminalTable("t", "a").format("b", "%.2f"));
        assertTrue(column.getMessage().contains("no column 'b'"));
        TerminalTable badPattern = new TerminalTable("t", "a").format("a", "%d").addRow(0.5);
        IllegalArgumentException pattern = assertThrows(IllegalArgumentException.class, badPattern::render);
        assertTrue(pattern.getMessage().contains("row 1") && pattern.getMessage().contains("'%d'"),
                pattern.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new TerminalTable("t"));
    }
}
