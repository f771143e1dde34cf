package org.dpdl4j.data.libsvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.MalformedDataException;
import org.dpdl4j.data.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LibSvmReaderTest {
    private static final LibSvmFormat FIVE = new LibSvmFormat(5, BinaryLabelScheme.PLUS_MINUS_ONE);

    @TempDir
    Path dir;

    private MalformedDataException fails(String content) throws IOException {
        Path p = TestFiles.text(dir, "bad.txt", content);
        return assertThrows(MalformedDataException.class, () -> LibSvmReader.read(p, FIVE));
    }

    private static void assertMentions(Exception e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "message lacks '" + part + "': " + e.getMessage());
        }
    }

    @Test
    void readsSparseRowsIntoDenseFeatures() throws IOException {
        Path p = TestFiles.text(dir, "ok.gz", "+1 1:0.5 3:2 \n-1\t2:1e-1 5:-3\n-1 \n+1 4:7\r\n");
        LabeledData d = LibSvmReader.read(p, FIVE);
        assertEquals(4, d.size());
        assertEquals(5, d.numFeatures());
        assertEquals(2, d.numClasses());
        assertArrayEquals(new int[] {1, 0, 0, 1}, d.labels());
        float[] expected = {
            0.5f, 0, 2, 0, 0,
            0, 0.1f, 0, 0, -3,
            0, 0, 0, 0, 0,
            0, 0, 0, 7, 0};
        assertArrayEquals(expected, d.features().data().asFloat());
        assertEquals("ok.gz", d.name());
    }

    @Test
    void otherLabelSchemes() throws IOException {
        Path p = TestFiles.text(dir, "ct.txt", "2 1:1\n1 2:1\n");
        assertArrayEquals(new int[] {1, 0}, LibSvmReader.read(p, new LibSvmFormat(2, BinaryLabelScheme.ONE_TWO)).labels());
        Path z = TestFiles.text(dir, "z.txt", "0 1:1\n1 2:1\n");
        assertArrayEquals(new int[] {0, 1}, LibSvmReader.read(z, new LibSvmFormat(2, BinaryLabelScheme.ZERO_ONE)).labels());
        MalformedDataException e = assertThrows(MalformedDataException.class, () -> LibSvmReader.read(z, FIVE));
        assertMentions(e, "line 1", "\"0\"", "-1 or +1", "-1 -> class 0, +1 -> class 1", "correct this line's label");
        assertFalse(e.getMessage().contains("PLUS_MINUS_ONE") || e.getMessage().contains("Scheme"), e.getMessage());
    }

    @Test
    void missingLabel() throws IOException {
        assertMentions(fails("+1 1:1\n2:0.5 4:1\n"), "bad.txt", "line 2", "label is missing", "\"2:0.5\"", "Fix: ");
    }

    @Test
    void emptyLine() throws IOException {
        assertMentions(fails("+1 1:1\n\n-1 2:1\n"), "line 2", "empty");
    }

    @Test
    void nonNumericLabel() throws IOException {
        assertMentions(fails("+1 1:1\nyes 2:1\n"), "line 2", "label \"yes\" is not a number");
    }

    @Test
    void nonNumericValue() throws IOException {
        assertMentions(fails("+1 1:1 3:abc\n"), "line 1", "token 3 \"3:abc\"", "value \"abc\", which is not a number");
        assertMentions(fails("+1 1:1.2.3\n"), "line 1", "value \"1.2.3\", which is not a number");
    }

    /** Line 2 of each file is bad; the message must name the file, the line, the token and the problem. */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = ';', textBlock = """
            +1 1:1 2:NaN ; token 3 "2:NaN" ; is not finite
            +1 1:1 2:nan ; token 3 "2:nan" ; is not finite
            +1 2:Infinity ; token 2 "2:Infinity" ; is not finite
            -1 2:-inf ; token 2 "2:-inf" ; is not finite
            +1 1:0.5 5:1e39 ; token 3 "5:1e39" ; overflows 32-bit float (|x| > 3.4028235e38)
            +1 5:-1e39 ; token 2 "5:-1e39" ; overflows 32-bit float (|x| > 3.4028235e38)
            +1 3:1e999 ; token 2 "3:1e999" ; overflows 32-bit float (|x| > 3.4028235e38)
            NaN 1:1 ; the label "NaN" ; is not finite
            -Infinity 1:1 ; the label "-Infinity" ; is not finite
            1e39 1:1 ; the label "1e39" ; is not one of the two labels
            1e400 1:1 ; the label "1e400" ; overflows 64-bit double
            """)
    void nonFiniteAndOverflowingValuesAreRejected(String badLine, String token, String problem) throws IOException {
        MalformedDataException e = fails("-1 1:0.25\n" + badLine + "\n+1 2:1\n");
        assertMentions(e, dir.resolve("bad.txt").toString() + ", line 2: ", token, problem, "Fix: ");
    }

    @Test
    void underflowToZeroAndTheLargestFloatAreAccepted() throws IOException {
        Path p = TestFiles.text(dir, "edge.txt", "+1 1:1e-50 2:3.4028235e38 3:-3.4028235e38 4:1.4e-45\n");
        float[] row = LibSvmReader.read(p, FIVE).features().data().asFloat();
        assertArrayEquals(new float[] {0f, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, 0f}, row);
    }

    @Test
    void malformedTokens() throws IOException {
        assertMentions(fails("+1 1:1 3\n"), "line 1", "token 3 \"3\"", "not of the form index:value");
        assertMentions(fails("+1 4:\n"), "\"4:\"", "index:value");
        assertMentions(fails("+1 :4\n"), "\":4\"", "index:value");
        assertMentions(fails("+1 x:4\n"), "non-integer index \"x\"");
    }

    @Test
    void indexOutOfRange() throws IOException {
        MalformedDataException tooLarge = fails("+1 1:1\n-1 2:1 6:1\n");
        assertMentions(tooLarge, "bad.txt", "line 2", "\"6:1\"", "index 6, outside 1..5", "has 5 features", "right one");
        assertFalse(tooLarge.getMessage().contains("numFeatures"), tooLarge.getMessage());
        assertMentions(fails("+1 0:1\n"), "line 1", "index 0, outside 1..5", "start at 1", "add 1 to every index");
        MalformedDataException negative = fails("+1 -1:1\n");
        assertMentions(negative, "line 1", "index -1, outside 1..5", "never negative", "from 1 to 5");
        assertFalse(negative.getMessage().contains("0-based"), negative.getMessage());
    }

    @Test
    void indicesNotIncreasing() throws IOException {
        assertMentions(fails("+1 1:1 4:1 3:1\n"), "line 1", "token 4 \"3:1\"", "does not increase",
                "previous index is 4", "sort");
        assertMentions(fails("+1 2:1 2:1\n"), "does not increase");
    }

    @Test
    void labelNotInScheme() throws IOException {
        assertMentions(fails("+1 1:1\n3 1:1\n"), "line 2", "\"3\"", "not one of the two labels");
    }

    @Test
    void emptyFile() throws IOException {
        assertMentions(fails(""), "no examples");
    }
}
