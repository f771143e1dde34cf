package org.dpdl4j.experiments.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetricsCsvTest {
    @TempDir
    Path dir;

    @Test
    void everyAppendedRowIsOnDiskBeforeClose() {
        Path file = dir.resolve("metrics.csv");
        try (MetricsCsv csv = MetricsCsv.create(file, List.of("epoch", "loss", "accuracy"))) {
            assertEquals(0, CsvTable.read(file).size());
            for (int epoch = 1; epoch <= 5; epoch++) {
                csv.append(epoch, 1.0 / epoch, 0.5 + epoch / 20.0);
                CsvTable onDisk = CsvTable.read(file);
                assertEquals(epoch, onDisk.size(), "rows on disk after append " + epoch);
                assertEquals(1.0 / epoch, onDisk.doubles("loss")[epoch - 1]);
            }
            assertEquals(5, csv.rows());
        }
    }

    @Test
    void doublesRoundTripBitForBit() {
        Path file = dir.resolve("doubles.csv");
        Random random = new Random(1);
        double[] values = new double[200];
        for (int i = 0; i < values.length; i++) {
            values[i] = Double.longBitsToDouble(random.nextLong());
            if (Double.isNaN(values[i])) {
                values[i] = random.nextGaussian();
            }
        }
        double[] special = {0.1, 1.0 / 3, Math.PI, 1e-300, Double.MIN_VALUE, Double.MAX_VALUE, -0.0, 0.0,
            Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 123456789.123456789, 1e21};
        System.arraycopy(special, 0, values, 0, special.length);
        try (MetricsCsv csv = MetricsCsv.create(file, List.of("i", "value"))) {
            for (int i = 0; i < values.length; i++) {
                csv.append(i, values[i]);
            }
        }
        double[] back = CsvTable.read(file).doubles("value");
        for (int i = 0; i < values.length; i++) {
            assertEquals(Double.doubleToLongBits(values[i]), Double.doubleToLongBits(back[i]),
                    "value " + i + ": " + values[i] + " read back as " + back[i]);
        }
    }

    @Test
    void textIsQuotedAndReadBackExactly() {
        Path file = dir.resolve("text.csv");
        List<String> tricky = Arrays.asList("plain", "with,comma", "say \"hi\"", "two\nlines", "crlf\r\nend",
                " padded ", "", null, "ε=1.84 ✓", "trailing\"");
        try (MetricsCsv csv = MetricsCsv.create(file, List.of("id", "name, with comma", "text"))) {
            for (int i = 0; i < tricky.size(); i++) {
                csv.append(i, "n" + i, tricky.get(i));
            }
        }
        CsvTable table = CsvTable.read(file);
        assertEquals(List.of("id", "name, with comma", "text"), table.header());
        assertEquals(tricky, table.column("text"));
        assertNull(table.column("text").get(7));
        assertEquals("", table.column("text").get(6));
    }

    @Test
    void floatsLongsAndBooleansAreWrittenPlainly() throws Exception {
        Path file = dir.resolve("plain.csv");
        try (MetricsCsv csv = MetricsCsv.create(file, List.of("f", "l", "b", "big"))) {
            csv.append(0.1f, Long.MAX_VALUE, true, new java.math.BigDecimal("1.50"));
        }
        assertEquals("f,l,b,big\n0.1,9223372036854775807,true,1.50\n", Files.readString(file));
    }

    @Test
    void rowsByNameMustMatchTheHeader() {
        Path file = dir.resolve("named.csv");
        try (MetricsCsv csv = MetricsCsv.create(file, List.of("round", "epsilon"))) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("epsilon", 1.5);
            row.put("round", 10);
            csv.append(row);
            IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                    () -> csv.append(Map.of("round", 1, "epsilon", 2.0, "acc", 0.9)));
            assertTrue(unknown.getMessage().contains("unknown column 'acc'"), unknown.getMessage());
            IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                    () -> csv.append(Map.of("round", 1)));
            assertTrue(missing.getMessage().contains("lacks column 'epsilon'"), missing.getMessage());
            IllegalArgumentException count = assertThrows(IllegalArgumentException.class, () -> csv.append(1, 2, 3));
            assertTrue(count.getMessage().contains("row 2") && count.getMessage().contains("3 values")
                    && count.getMessage().contains("2 columns"), count.getMessage());
        }
        assertArrayEquals(new double[] {10}, CsvTable.read(file).doubles("round"));
    }

    @Test
    void neverOverwritesAndResumesOnlyWithTheSameHeader() {
        Path file = dir.resolve("m.csv");
        try (MetricsCsv csv = MetricsCsv.create(file, List.of("epoch", "loss"))) {
            csv.append(1, 0.5);
        }
        UncheckedIOException exists = assertThrows(UncheckedIOException.class,
                () -> MetricsCsv.create(file, List.of("epoch", "loss")));
        assertTrue(exists.getMessage().contains("already exists"), exists.getMessage());
        IllegalArgumentException header = assertThrows(IllegalArgumentException.class,
                () -> MetricsCsv.resume(file, List.of("epoch", "accuracy")));
        assertTrue(header.getMessage().contains("[epoch, loss]"), header.getMessage());
        try (MetricsCsv csv = MetricsCsv.resume(file, List.of("epoch", "loss"))) {
            assertEquals(1, csv.rows());
            csv.append(2, 0.25);
        }
        assertArrayEquals(new double[] {0.5, 0.25}, CsvTable.read(file).doubles("loss"));
    }

    @Test
    void headersMustBeNamedAndDistinct() {
        assertThrows(IllegalArgumentException.class, () -> MetricsCsv.create(dir.resolve("a.csv"), List.of()));
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> MetricsCsv.create(dir.resolve("b.csv"), List.of("loss", "loss")));
        assertTrue(twice.getMessage().contains("'loss' appears twice"), twice.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MetricsCsv.create(dir.resolve("c.csv"),
                Arrays.asList("x", " ")));
    }
}
