package org.dpdl4j.cuda.engine;

/**
 * A range of float32 values in a {@link Backend}'s memory: device memory for CUDA, a Java array for the reference.
 * Slices share the memory of the array they come from; only the array a backend allocated is closed.
 */
public interface DeviceArray {
    /** Number of floats. */
    long length();

    /** The floats {@code [offset, offset + length)} of this array, sharing its memory. */
    DeviceArray slice(long offset, long length);

    /** Checks a slice's bounds against an array of {@code length} floats. */
    static void checkSlice(long arrayLength, long offset, long length) {
        if (offset < 0 || length < 0 || offset + length > arrayLength) {
            throw new IndexOutOfBoundsException("slice [" + offset + ", " + (offset + length) + ") of an array of "
                    + arrayLength + " floats");
        }
    }
}
