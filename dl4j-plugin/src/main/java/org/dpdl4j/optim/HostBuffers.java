package org.dpdl4j.optim;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;

/**
 * Copies between float32 ND4J arrays in host memory and the Java arrays of {@link HostDenseGradients}, by bulk
 * transfers on the arrays' own buffers: no ND4J operation, so no native allocation (each of which costs JavaCPP a
 * physical-memory check) and no op dispatch.
 */
final class HostBuffers {
    private HostBuffers() {
    }

    /** The buffer of {@code a} positioned nowhere; element e of the array's storage is at {@code a.offset() + e}. */
    private static FloatBuffer floats(INDArray a) {
        if (a.dataType() != DataType.FLOAT) {
            throw new IllegalArgumentException("expected a FLOAT array, got " + a.dataType());
        }
        return a.data().asNioFloat();
    }

    /** Whether a 2-D array is stored row after row without gaps, as {@link #readRows} needs. */
    static boolean isDenseRowMajor(INDArray a) {
        return a.rank() == 2 && a.ordering() == 'c' && a.stride(1) == 1 && a.stride(0) == a.size(1);
    }

    /** rows[i][0..n) = a[i, :] for a dense row-major [b, n] array. */
    static void readRows(INDArray a, int b, int n, float[][] rows) {
        FloatBuffer buf = floats(a);
        int base = (int) a.offset();
        for (int i = 0; i < b; i++) {
            buf.get(base + i * n, rows[i], 0, n);
        }
    }

    /** columns[j][i] = a[i, j] for a dense row-major [b, n] array. */
    static void readRowsAsColumns(INDArray a, int b, int n, float[][] columns) {
        FloatBuffer buf = floats(a);
        int base = (int) a.offset();
        for (int i = 0; i < b; i++) {
            int row = base + i * n;
            for (int j = 0; j < n; j++) {
                columns[j][i] = buf.get(row + j);
            }
        }
    }

    /** columns[j][0..b) = a[:, j] for a column-major ('f') [b, n] array without gaps. */
    static void readColumns(INDArray a, int b, int n, float[][] columns) {
        FloatBuffer buf = floats(a);
        int base = (int) a.offset();
        for (int j = 0; j < n; j++) {
            buf.get(base + j * b, columns[j], 0, b);
        }
    }

    /** a[:, j] = columns[j][0..b) for a column-major ('f') [b, n] array without gaps. */
    static void writeColumns(float[][] columns, int b, int n, INDArray a) {
        FloatBuffer buf = floats(a);
        int base = (int) a.offset();
        for (int j = 0; j < n; j++) {
            buf.put(base + j * b, columns[j], 0, b);
        }
    }

    /** dst[0..n) = the n elements of a contiguous array (or vector view) starting at element {@code from}. */
    static void read(INDArray a, long from, float[] dst, int n) {
        floats(a).get((int) (a.offset() + from), dst, 0, n);
    }

    /** The n elements of a contiguous array starting at element {@code from} = src[0..n). */
    static void write(float[] src, int n, INDArray a, long from) {
        floats(a).put((int) (a.offset() + from), src, 0, n);
    }

    /**
     * a /= divisor element by element, in the array's own precision (the division ND4J's {@code divi} performs),
     * through its buffer when it is a contiguous float or double vector in host memory; false when it is not, and
     * nothing was done.
     */
    static boolean divideVector(INDArray a, double divisor) {
        if (!Nd4j.getEnvironment().isCPU() || !a.isVectorOrScalar() || a.elementWiseStride() != 1 || a.length() > Integer.MAX_VALUE) {
            return false;
        }
        int n = (int) a.length();
        int base = (int) a.offset();
        if (a.dataType() == DataType.FLOAT) {
            FloatBuffer buf = a.data().asNioFloat();
            float d = (float) divisor;
            for (int i = base; i < base + n; i++) {
                buf.put(i, buf.get(i) / d);
            }
            return true;
        }
        if (a.dataType() == DataType.DOUBLE) {
            DoubleBuffer buf = a.data().asNioDouble();
            for (int i = base; i < base + n; i++) {
                buf.put(i, buf.get(i) / divisor);
            }
            return true;
        }
        return false;
    }
}
