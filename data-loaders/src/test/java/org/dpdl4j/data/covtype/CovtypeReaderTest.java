package org.dpdl4j.data.covtype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.StringJoiner;
import java.util.function.IntFunction;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.MalformedDataException;
import org.dpdl4j.data.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CovtypeReaderTest {
    @TempDir
    Path dir;

    /** A row of 54 features, f(j) for feature j, and the label first or last. */
    private static String row(String label, boolean labelFirst, IntFunction<String> f) {
        StringJoiner j = new StringJoiner(",");
        if (labelFirst) {
            j.add(label);
        }
        for (int c = 0; c < 54; c++) {
            j.add(f.apply(c));
        }
        if (!labelFirst) {
            j.add(label);
        }
        return j.toString();
    }

    private static String header() {
        StringJoiner j = new StringJoiner(",");
        j.add("Elevation");
        for (int c = 1; c < 54; c++) {
            j.add("F" + c);
        }
        return j.add("Cover_Type").toString();
    }

    private static void assertMentions(Exception e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "message lacks '" + part + "': " + e.getMessage());
        }
    }

    @Test
    void scaledWithHeaderSevenClassAndBinary() throws IOException {
        String content = header() + "\n" + row("2", false, c -> "0.5") + "\n" + row("7", false, c -> c == 3 ? "1" : "0")
                + "\n" + row("1", false, c -> "0.25") + "\n";
        Path p = TestFiles.text(dir, "s.csv.gz", content);
        LabeledData seven = CovtypeReader.read(p, CovtypeOptions.of(CovtypeLayout.SCALED_WITH_HEADER, CovtypeTask.SEVEN_CLASS));
        assertEquals(3, seven.size());
        assertEquals(54, seven.numFeatures());
        assertEquals(7, seven.numClasses());
        assertArrayEquals(new int[] {1, 6, 0}, seven.labels());
        assertEquals(0.5f, seven.features().getFloat(0, 53));
        assertEquals(1f, seven.features().getFloat(1, 3));
        assertEquals(0f, seven.features().getFloat(1, 4));
        LabeledData binary = CovtypeReader.read(p, CovtypeOptions.of(CovtypeLayout.SCALED_WITH_HEADER,
                CovtypeTask.TYPE2_VS_REST));
        assertEquals(2, binary.numClasses());
        assertArrayEquals(new int[] {1, 0, 0}, binary.labels());
    }

    @Test
    void binaryLabelFirst() throws IOException {
        Path p = TestFiles.text(dir, "b.csv", row("1", true, c -> "0.1") + "\n" + row("2", true, c -> "0.9") + "\n");
        LabeledData d = CovtypeReader.read(p, CovtypeOptions.of(CovtypeLayout.BINARY_LABEL_FIRST, CovtypeTask.TYPE2_VS_REST));
        assertArrayEquals(new int[] {0, 1}, d.labels());
        assertEquals(0.9f, d.features().getFloat(1, 0));
        assertEquals(0.9f, d.features().getFloat(1, 53));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CovtypeOptions.of(CovtypeLayout.BINARY_LABEL_FIRST, CovtypeTask.SEVEN_CLASS));
        assertMentions(e, "TYPE2_VS_REST");
        Path three = TestFiles.text(dir, "b3.csv", row("3", true, c -> "0.1") + "\n");
        MalformedDataException badLabel = assertThrows(MalformedDataException.class, () -> CovtypeReader.read(three,
                CovtypeOptions.of(CovtypeLayout.BINARY_LABEL_FIRST, CovtypeTask.TYPE2_VS_REST)));
        assertMentions(badLabel, "line 1", "column 1", "binary label (1 or 2)", "right one for this data set");
        // The message speaks of the file, not of the reader's settings.
        assertFalse(badLabel.getMessage().contains("BINARY_LABEL_FIRST") || badLabel.getMessage().contains("layout"),
                badLabel.getMessage());
    }

    @Test
    void uciRawIsMinMaxScaledPerFeature() throws IOException {
        String content = row("5", false, c -> Integer.toString(2000 + c)) + "\n"
                + row("2", false, c -> Integer.toString(3000 + 2 * c)) + "\n"
                + row("2", false, c -> c == 0 ? "2500" : "7") + "\n";
        Path p = TestFiles.text(dir, "covtype.data", content);
        LabeledData scaled = CovtypeReader.read(p, CovtypeOptions.of(CovtypeLayout.UCI_RAW, CovtypeTask.SEVEN_CLASS));
        assertArrayEquals(new int[] {4, 1, 1}, scaled.labels());
        assertEquals(0f, scaled.features().getFloat(0, 0));
        assertEquals(1f, scaled.features().getFloat(1, 0));
        assertEquals(0.5f, scaled.features().getFloat(2, 0));
        // feature 10: values 2010, 3020, 7 -> (v - 7) / 3013
        assertEquals((float) ((2010 - 7) / 3013.0), scaled.features().getFloat(0, 10));
        assertEquals(0f, scaled.features().getFloat(2, 10));
        LabeledData raw = CovtypeReader.read(p, new CovtypeOptions(CovtypeLayout.UCI_RAW, CovtypeTask.SEVEN_CLASS, false));
        assertEquals(3020f, raw.features().getFloat(1, 10));
        assertThrows(IllegalArgumentException.class,
                () -> new CovtypeOptions(CovtypeLayout.SCALED_WITH_HEADER, CovtypeTask.SEVEN_CLASS, true));
    }

    @Test
    void constantFeatureScalesToZero() {
        float[] v = {3, 1, 3, 2, 3, 3};
        CovtypeReader.minMaxScale(v, 2);
        assertArrayEquals(new float[] {0, 0, 0, 0.5f, 0, 1}, v);
    }

    @Test
    void wrongColumnCount() throws IOException {
        String shortRow = row("2", false, c -> "0.5").substring(4); // drops the first feature
        Path p = TestFiles.text(dir, "w.csv.gz", header() + "\n" + row("2", false, c -> "0.5") + "\n" + shortRow + "\n");
        MalformedDataException e = assertThrows(MalformedDataException.class,
                () -> CovtypeReader.read(p, CovtypeOptions.of(CovtypeLayout.SCALED_WITH_HEADER, CovtypeTask.SEVEN_CLASS)));
        assertMentions(e, "w.csv.gz", "line 3", "54 columns, expected 55", "Fix: ");
        Path blank = TestFiles.text(dir, "blank.csv", row("2", false, c -> "1") + "\n\n");
        assertMentions(assertThrows(MalformedDataException.class, () -> CovtypeReader.read(blank,
                CovtypeOptions.of(CovtypeLayout.UCI_RAW, CovtypeTask.SEVEN_CLASS))), "line 2", "1 columns");
    }

    @Test
    void nonNumericCell() throws IOException {
        Path p = TestFiles.text(dir, "n.csv", row("2", false, c -> c == 7 ? "x7" : "1") + "\n");
        assertMentions(assertThrows(MalformedDataException.class, () -> CovtypeReader.read(p,
                CovtypeOptions.of(CovtypeLayout.UCI_RAW, CovtypeTask.SEVEN_CLASS))), "line 1", "column 8", "\"x7\"");
    }

    /** Row 2 of each file is bad; the message must name the file, the line, the column and the problem. */
    @ParameterizedTest(name = "[{index}] {0} in column {1}")
    @CsvSource(delimiter = ';', textBlock = """
            NaN ; 8 ; is not finite
            nan ; 8 ; is not finite
            Infinity ; 1 ; is not finite
            -inf ; 54 ; is not finite
            1e39 ; 8 ; overflows 32-bit float (|x| > 3.4028235e38)
            -1e39 ; 54 ; overflows 32-bit float (|x| > 3.4028235e38)
            1e999 ; 8 ; overflows 32-bit float (|x| > 3.4028235e38)
            NaN ; 55 ; is not finite
            1e39 ; 55 ; must be the cover type (1..7)
            1e400 ; 55 ; overflows 64-bit double
            """)
    void nonFiniteAndOverflowingValuesAreRejected(String value, int column, String problem) throws IOException {
        String bad = row(column == 55 ? value : "3", false, c -> c == column - 1 ? value : "1");
        Path p = TestFiles.text(dir, "v.csv", row("1", false, c -> "1") + "\n" + bad + "\n");
        MalformedDataException e = assertThrows(MalformedDataException.class, () -> CovtypeReader.read(p,
                CovtypeOptions.of(CovtypeLayout.UCI_RAW, CovtypeTask.SEVEN_CLASS)));
        assertMentions(e, p + ", line 2: ", "column " + column + " holds \"" + value + "\"", problem, "Fix: ");
    }

    @Test
    void underflowToZeroIsAccepted() throws IOException {
        Path p = TestFiles.text(dir, "u.csv", row("2", true, c -> c == 0 ? "1e-50" : "3.4028235e38") + "\n");
        LabeledData d = CovtypeReader.read(p, CovtypeOptions.of(CovtypeLayout.BINARY_LABEL_FIRST, CovtypeTask.TYPE2_VS_REST));
        assertEquals(0f, d.features().getFloat(0, 0));
        assertEquals(Float.MAX_VALUE, d.features().getFloat(0, 53));
    }

    @Test
    void coverTypeOutOfRange() throws IOException {
        for (String bad : new String[] {"0", "8", "2.5"}) {
            Path p = TestFiles.text(dir, "c.csv", row("1", false, c -> "1") + "\n" + row(bad, false, c -> "1") + "\n");
            assertMentions(assertThrows(MalformedDataException.class, () -> CovtypeReader.read(p,
                    CovtypeOptions.of(CovtypeLayout.UCI_RAW, CovtypeTask.SEVEN_CLASS))), "line 2", "column 55",
                    "\"" + bad + "\"", "cover type (1..7)");
        }
    }

    @Test
    void missingHeaderIsDiagnosed() throws IOException {
        Path p = TestFiles.text(dir, "nh.csv", row("2", false, c -> "0.5") + "\n");
        MalformedDataException e = assertThrows(MalformedDataException.class, () -> CovtypeReader.read(p,
                CovtypeOptions.of(CovtypeLayout.SCALED_WITH_HEADER, CovtypeTask.SEVEN_CLASS)));
        assertMentions(e, "line 1", "starts with the number 0.5", "a header row (Elevation,...,Cover_Type)",
                "right one for this data set");
        assertFalse(e.getMessage().contains("UCI_RAW") || e.getMessage().contains("layout"), e.getMessage());
    }

    @Test
    void coverTypeMapping() {
        assertEquals(6, CovtypeTask.SEVEN_CLASS.classOfCoverType(7));
        assertEquals(1, CovtypeTask.TYPE2_VS_REST.classOfCoverType(2));
        assertEquals(0, CovtypeTask.TYPE2_VS_REST.classOfCoverType(1));
        assertEquals(0, CovtypeTask.TYPE2_VS_REST.classOfCoverType(7));
        assertThrows(IllegalArgumentException.class, () -> CovtypeTask.SEVEN_CLASS.classOfCoverType(0));
    }
}
