package org.dpdl4j.data.libsvm;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.MalformedDataException;
import org.dpdl4j.data.io.DataFiles;
import org.dpdl4j.data.io.GrowableFloats;
import org.dpdl4j.data.io.GrowableInts;
import org.dpdl4j.data.io.Numbers;
import org.dpdl4j.data.io.Numbers.InvalidNumberException;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Reads a binary-classification file in LIBSVM's sparse text format, {@code label index:value ...}
 * with 1-based, strictly increasing indices, into a dense {@link LabeledData} with two classes.
 * Absent indices are zeros. The file may be gzip or plain text.
 *
 * <p>DataVec's {@code SVMLightRecordReader} / {@code LibSvmRecordReader} read the same format but
 * are not used here: their errors name neither the file nor the line, they accept repeated or
 * decreasing indices (a later pair silently overwrites an earlier one), they skip '#' comments and
 * {@code qid:} tokens, they do not read gzip, and they build one {@code Writable} object per
 * feature per line, where a direct parse into one float array is simpler and faster.
 */
public final class LibSvmReader {
    private LibSvmReader() {
    }

    /** Reads the file; the data set is named after the file. */
    public static LabeledData read(Path file, LibSvmFormat format) throws IOException {
        return read(file, format, file.getFileName().toString());
    }

    /** Reads the file into a data set with the given name. */
    public static LabeledData read(Path file, LibSvmFormat format, String name) throws IOException {
        Objects.requireNonNull(format, "format");
        int d = format.numFeatures();
        GrowableFloats features = new GrowableFloats(d);
        GrowableInts labels = new GrowableInts();
        try (BufferedReader in = DataFiles.openText(file)) {
            String line;
            long lineNo = 0;
            while ((line = in.readLine()) != null) {
                lineNo++;
                parseLine(line, lineNo, file, format, features, labels);
            }
        }
        if (labels.size() == 0) {
            throw MalformedDataException.inFile(file, "the file has no examples", "pass a non-empty LIBSVM file");
        }
        int n = labels.size();
        return new LabeledData(name, Nd4j.create(features.toArray(), new long[] {n, d}, DataType.FLOAT),
                labels.toArray(), 2);
    }

    private static void parseLine(String line, long lineNo, Path file, LibSvmFormat format, GrowableFloats features,
            GrowableInts labels) throws MalformedDataException {
        int len = line.length();
        int pos = skipBlanks(line, 0);
        if (pos == len) {
            throw MalformedDataException.atLine(file, lineNo, "the line is empty, so it has no label",
                    "remove the empty line; every line must be 'label index:value ...'");
        }
        int end = tokenEnd(line, pos);
        int firstColon = line.indexOf(':', pos);
        if (firstColon >= 0 && firstColon < end) {
            throw MalformedDataException.atLine(file, lineNo, "the label is missing: the line starts with the feature "
                    + "token \"" + line.substring(pos, end) + "\"", "put the class label (" + format.labels().describe()
                    + ") first on every line");
        }
        double label;
        try {
            label = Numbers.parseDecimal(line, pos, end);
        } catch (InvalidNumberException e) {
            throw MalformedDataException.atLine(file, lineNo, "the label \"" + e.text() + "\" " + e.problem().phrase(),
                    "every line must start with a numeric label (" + format.labels().describe() + ")");
        }
        int cls = format.labels().classOf(label);
        if (cls < 0) {
            throw MalformedDataException.atLine(file, lineNo, "the label \"" + line.substring(pos, end)
                    + "\" is not one of the two labels " + format.labels().labelValues() + " that this file must use ("
                    + format.labels().describe() + ")", "check that the file is the right one for this data set (every"
                    + " line starts with " + format.labels().labelValues() + "), or correct this line's label");
        }
        int row = features.appendRow();
        labels.add(cls);
        int d = format.numFeatures();
        int previous = 0;
        int tokenNo = 1;
        pos = skipBlanks(line, end);
        while (pos < len) {
            end = tokenEnd(line, pos);
            tokenNo++;
            String where = "token " + tokenNo + " \"" + line.substring(pos, end) + "\"";
            int colon = line.indexOf(':', pos);
            if (colon < 0 || colon >= end || colon == pos || colon == end - 1) {
                throw MalformedDataException.atLine(file, lineNo, where + " is not of the form index:value",
                        "write each feature as index:value, separated by spaces");
            }
            int index;
            try {
                index = Numbers.parseInt(line, pos, colon);
            } catch (NumberFormatException e) {
                throw MalformedDataException.atLine(file, lineNo, where + " has a non-integer index \""
                        + line.substring(pos, colon) + "\"", "feature indices must be integers 1.." + d);
            }
            if (index < 1 || index > d) {
                throw MalformedDataException.atLine(file, lineNo, where + " has index " + index + ", outside 1.." + d
                        + indexProblem(index, d), indexFix(index, d));
            }
            if (index <= previous) {
                throw MalformedDataException.atLine(file, lineNo, where + " has index " + index
                        + ", which does not increase (the previous index is " + previous + ")",
                        "sort each line's index:value pairs by index and remove duplicates");
            }
            float value;
            try {
                value = Numbers.parseFloat32(line, colon + 1, end);
            } catch (InvalidNumberException e) {
                throw MalformedDataException.atLine(file, lineNo, where + " has the value \"" + e.text() + "\", which "
                        + e.problem().phrase(), e.problem().fix());
            }
            features.set(row + index - 1, value);
            previous = index;
            pos = skipBlanks(line, end);
        }
    }

    /** Why an index outside 1..d is wrong, in the file's terms. */
    private static String indexProblem(int index, int d) {
        if (index == 0) {
            return " (LIBSVM feature indices start at 1)";
        }
        return index < 0 ? " (a feature index is never negative)" : " (the data set has " + d + " features)";
    }

    /** What to do about an index outside 1..d. */
    private static String indexFix(int index, int d) {
        if (index == 0) {
            return "if the file counts its features from 0, add 1 to every index; else correct this line";
        }
        return index < 0 ? "correct this line: indices are whole numbers from 1 to " + d
                : "check that the file is the right one for this data set (its indices go up to " + d + "), or correct"
                        + " this line";
    }

    private static int skipBlanks(String s, int i) {
        while (i < s.length() && isBlank(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static int tokenEnd(String s, int i) {
        while (i < s.length() && !isBlank(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\r';
    }
}
