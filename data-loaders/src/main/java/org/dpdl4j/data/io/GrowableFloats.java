package org.dpdl4j.data.io;

import java.util.Arrays;

/**
 * A dense row-major matrix of floats whose number of rows grows as rows are appended, for readers
 * that do not know the row count before they reach the end of a text file.
 */
public final class GrowableFloats {
    private final int columns;
    private float[] data;
    private int rows;

    /** An empty matrix with the given number of columns. */
    public GrowableFloats(int columns) {
        if (columns < 1) {
            throw new IllegalArgumentException("a matrix needs at least 1 column, got " + columns);
        }
        this.columns = columns;
        this.data = new float[columns * 1024];
    }

    /** Appends a zero row and returns its offset in the backing array, for {@link #set}. */
    public int appendRow() {
        long needed = (long) (rows + 1) * columns;
        if (needed > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("more than " + (Integer.MAX_VALUE - 8)
                    + " values do not fit one Java array; read the data in parts");
        }
        if (needed > data.length) {
            data = Arrays.copyOf(data, (int) Math.min(Integer.MAX_VALUE - 8L, Math.max(needed, 2L * data.length)));
        }
        int offset = rows * columns;
        rows++;
        return offset;
    }

    /** Stores a value at an absolute offset (row offset plus column). */
    public void set(int offset, float value) {
        data[offset] = value;
    }

    /** The number of rows appended so far. */
    public int rows() {
        return rows;
    }

    /** The number of columns. */
    public int columns() {
        return columns;
    }

    /** The rows x columns values, row-major, trimmed to length. */
    public float[] toArray() {
        return Arrays.copyOf(data, rows * columns);
    }
}
