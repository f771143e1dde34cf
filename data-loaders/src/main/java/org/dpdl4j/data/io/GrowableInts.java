package org.dpdl4j.data.io;

import java.util.Arrays;

/** An int list without boxing, for labels read one line at a time. */
public final class GrowableInts {
    private int[] data = new int[1024];
    private int size;

    /** Appends a value. */
    public void add(int value) {
        if (size == data.length) {
            data = Arrays.copyOf(data, data.length * 2);
        }
        data[size++] = value;
    }

    /** The number of values. */
    public int size() {
        return size;
    }

    /** The values, trimmed to length. */
    public int[] toArray() {
        return Arrays.copyOf(data, size);
    }
}
