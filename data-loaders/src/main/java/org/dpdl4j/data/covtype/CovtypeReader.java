package org.dpdl4j.data.covtype;

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
 * Reads the covtype (Forest CoverType) CSV files, gzip or plain, in any {@link CovtypeLayout}.
 *
 * <p>Rows come back in file order. The 20k subset is sorted by label, so shuffle
 * ({@link LabeledData#shuffled(long)}) or split ({@link LabeledData#split(double, long)}) before
 * training on it.
 */
public final class CovtypeReader {
    private static final String WRONG_FILE = "check that the file is the right one for this data set";

    private CovtypeReader() {
    }

    /** Reads the file; the data set is named after the file. */
    public static LabeledData read(Path file, CovtypeOptions options) throws IOException {
        return read(file, options, file.getFileName().toString());
    }

    /** Reads the file into a data set with the given name. */
    public static LabeledData read(Path file, CovtypeOptions options, String name) throws IOException {
        Objects.requireNonNull(options, "options");
        CovtypeLayout layout = options.layout();
        GrowableFloats features = new GrowableFloats(CovtypeLayout.FEATURES);
        GrowableInts labels = new GrowableInts();
        try (BufferedReader in = DataFiles.openText(file)) {
            String line;
            long lineNo = 0;
            if (layout.hasHeader()) {
                line = in.readLine();
                lineNo++;
                checkHeader(line, file, layout);
            }
            while ((line = in.readLine()) != null) {
                lineNo++;
                parseRow(line, lineNo, file, options, features, labels);
            }
        }
        if (labels.size() == 0) {
            throw MalformedDataException.inFile(file, "the file has no data rows", "pass a non-empty covtype file");
        }
        float[] values = features.toArray();
        if (options.minMaxScale()) {
            minMaxScale(values, CovtypeLayout.FEATURES);
        }
        int n = labels.size();
        return new LabeledData(name, Nd4j.create(values, new long[] {n, CovtypeLayout.FEATURES}, DataType.FLOAT),
                labels.toArray(), options.task().numClasses());
    }

    private static void checkHeader(String line, Path file, CovtypeLayout layout) throws MalformedDataException {
        if (line == null) {
            throw MalformedDataException.inFile(file, "the file is empty; it should hold " + layout.describe(),
                    "pass a non-empty covtype file");
        }
        int comma = line.indexOf(',');
        String first = comma < 0 ? line : line.substring(0, comma);
        boolean numeric;
        try {
            Numbers.parseDecimal(first.trim());
            numeric = true;
        } catch (NumberFormatException e) {
            numeric = false;
        }
        if (numeric) {
            throw MalformedDataException.atLine(file, 1, "line 1 starts with the number " + first + ", but this file"
                    + " should hold " + layout.describe(), WRONG_FILE);
        }
        int cells = countCells(line);
        if (cells != CovtypeLayout.COLUMNS) {
            throw MalformedDataException.atLine(file, 1, "the header row has " + cells + " columns, expected "
                    + CovtypeLayout.COLUMNS, "pass a covtype file with 54 feature columns and one label column");
        }
    }

    private static void parseRow(String line, long lineNo, Path file, CovtypeOptions options, GrowableFloats features,
            GrowableInts labels) throws MalformedDataException {
        CovtypeLayout layout = options.layout();
        int cells = countCells(line);
        if (cells != CovtypeLayout.COLUMNS) {
            throw MalformedDataException.atLine(file, lineNo, "the row has " + cells + " columns, expected "
                    + CovtypeLayout.COLUMNS + " (54 features and the " + (layout.binaryLabels() ? "binary label" : "cover type")
                    + ")", "repair or remove the row; every row of this file has " + CovtypeLayout.COLUMNS
                    + " comma-separated values (" + layout.describe() + ")");
        }
        int row = features.appendRow();
        int labelColumn = layout.labelFirst() ? 0 : CovtypeLayout.COLUMNS - 1;
        int start = 0;
        for (int col = 0; col < CovtypeLayout.COLUMNS; col++) {
            int end = line.indexOf(',', start);
            if (end < 0) {
                end = line.length();
            }
            int from = trimStart(line, start, end);
            int to = trimEnd(line, start, end);
            try {
                if (col == labelColumn) {
                    labels.add(classOf(Numbers.parseDecimal(line, from, to), line.substring(start, end), lineNo, col,
                            file, options));
                } else {
                    int feature = layout.labelFirst() ? col - 1 : col;
                    features.set(row + feature, Numbers.parseFloat32(line, from, to));
                }
            } catch (InvalidNumberException e) {
                throw MalformedDataException.atLine(file, lineNo, "column " + (col + 1) + " holds \""
                        + line.substring(start, end) + "\", which " + e.problem().phrase(), e.problem().fix());
            }
            start = end + 1;
        }
    }

    private static int classOf(double value, String cell, long lineNo, int col, Path file, CovtypeOptions options)
            throws MalformedDataException {
        int max = options.layout().binaryLabels() ? 2 : 7;
        if (value != Math.rint(value) || value < 1 || value > max) {
            String what = options.layout().binaryLabels() ? "binary label (1 or 2)" : "cover type (1..7)";
            throw MalformedDataException.atLine(file, lineNo, "column " + (col + 1) + " holds \"" + cell
                    + "\" but it must be the " + what + ", as this file should hold " + options.layout().describe(),
                    WRONG_FILE + ", or correct this row");
        }
        int label = (int) value;
        if (options.layout().binaryLabels()) {
            return label == 2 ? 1 : 0;
        }
        return options.task().classOfCoverType(label);
    }

    private static int countCells(String line) {
        int cells = 1;
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == ',') {
                cells++;
            }
        }
        return cells;
    }

    private static int trimStart(String s, int start, int end) {
        while (start < end && s.charAt(start) <= ' ') {
            start++;
        }
        return start;
    }

    private static int trimEnd(String s, int start, int end) {
        while (end > start && s.charAt(end - 1) <= ' ') {
            end--;
        }
        return end;
    }

    /** Scales each column to [0, 1] by its minimum and maximum; a constant column becomes 0. */
    static void minMaxScale(float[] values, int columns) {
        int rows = values.length / columns;
        for (int c = 0; c < columns; c++) {
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (int r = 0; r < rows; r++) {
                double v = values[r * columns + c];
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
            double range = max - min;
            for (int r = 0; r < rows; r++) {
                int i = r * columns + c;
                values[i] = range > 0 ? (float) ((values[i] - min) / range) : 0f;
            }
        }
    }
}
