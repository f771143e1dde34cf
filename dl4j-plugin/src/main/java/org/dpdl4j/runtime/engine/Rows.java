package org.dpdl4j.runtime.engine;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A matrix as a plain Java array, to travel between a driver and its workers: models, messages, a party's examples.
 * Floats stay floats and doubles stay doubles, so nothing is rounded on the way.
 *
 * @param rows    r
 * @param columns c
 * @param floats  the values in row-major order when the matrix holds floats, else null
 * @param doubles the values in row-major order when the matrix holds doubles, else null
 */
public record Rows(int rows, long columns, float[] floats, double[] doubles) implements Serializable {
    public Rows {
        if ((floats == null) == (doubles == null)) {
            throw new IllegalArgumentException("rows hold either floats or doubles");
        }
        long n = floats != null ? floats.length : doubles.length;
        if (rows < 0 || columns < 0 || n != rows * columns) {
            throw new IllegalArgumentException(n + " values do not make " + rows + " rows of " + columns);
        }
    }

    /** A copy of a FLOAT or DOUBLE matrix ([r, c]; a vector is one row). */
    public static Rows of(INDArray a) {
        INDArray m = a.rank() == 1 ? a.reshape(1, a.length()) : a;
        if (m.rank() != 2) {
            throw new IllegalArgumentException("rows travel as matrices, got shape " + Arrays.toString(a.shape()));
        }
        int r = (int) m.rows();
        long c = m.columns();
        if (m.dataType() != DataType.FLOAT && m.dataType() != DataType.DOUBLE) {
            throw new IllegalArgumentException("rows travel as FLOAT or DOUBLE, got " + m.dataType());
        }
        INDArray copy = m.dup('c');   // a buffer of exactly these values, in row-major order
        int n = (int) copy.length();
        if (m.dataType() == DataType.FLOAT) {
            float[] values = new float[n];
            if (Nd4j.getEnvironment().isCPU()) {
                new FloatPointer(copy.data().addressPointer()).get(values, 0, n);   // one copy, not one call per value
            } else {
                values = copy.data().asFloat();
            }
            return new Rows(r, c, values, null);
        }
        double[] values = new double[n];
        if (Nd4j.getEnvironment().isCPU()) {
            new DoublePointer(copy.data().addressPointer()).get(values, 0, n);
        } else {
            values = copy.data().asDouble();
        }
        return new Rows(r, c, null, values);
    }

    /**
     * Java serialization writes a float array one value at a time; rows travel as one block of bytes instead (through
     * {@link Serial}), several times faster for the megabytes of a round's messages.
     */
    private Object writeReplace() {
        return new Serial(this);
    }

    /** The serialized form of {@link Rows}: the shape and the values as bytes in this machine's byte order. */
    private static final class Serial implements Serializable {
        private static final long serialVersionUID = 1L;
        private final int rows;
        private final long columns;
        private final boolean isFloat;
        private final boolean littleEndian;
        private final byte[] bytes;

        Serial(Rows r) {
            this.rows = r.rows;
            this.columns = r.columns;
            this.isFloat = r.floats != null;
            this.littleEndian = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
            int n = isFloat ? r.floats.length : r.doubles.length;
            this.bytes = new byte[n * (isFloat ? Float.BYTES : Double.BYTES)];
            ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
            if (isFloat) {
                buffer.asFloatBuffer().put(r.floats);
            } else {
                buffer.asDoubleBuffer().put(r.doubles);
            }
        }

        private Object readResolve() {
            ByteBuffer buffer = ByteBuffer.wrap(bytes).order(littleEndian ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
            if (isFloat) {
                float[] values = new float[bytes.length / Float.BYTES];
                buffer.asFloatBuffer().get(values);
                return new Rows(rows, columns, values, null);
            }
            double[] values = new double[bytes.length / Double.BYTES];
            buffer.asDoubleBuffer().get(values);
            return new Rows(rows, columns, null, values);
        }
    }

    /**
     * Rows {@code which} of a matrix, gathered straight from its memory where it is a whole C-order matrix in host
     * memory (one copy), else through ND4J.
     */
    public static Rows ofRows(INDArray matrix, int[] which) {
        long c = matrix.columns();
        if (!isWholeHostMatrix(matrix)) {
            return of(Nd4j.pullRows(matrix, 1, which));
        }
        int n = Math.multiplyExact(which.length, (int) c);
        if (matrix.dataType() == DataType.FLOAT) {
            float[] values = new float[n];
            FloatPointer from = new FloatPointer(matrix.data().addressPointer());
            for (int k = 0; k < which.length; k++) {
                from.position(which[k] * c).get(values, (int) (k * c), (int) c);
            }
            return new Rows(which.length, c, values, null);
        }
        double[] values = new double[n];
        DoublePointer from = new DoublePointer(matrix.data().addressPointer());
        for (int k = 0; k < which.length; k++) {
            from.position(which[k] * c).get(values, (int) (k * c), (int) c);
        }
        return new Rows(which.length, c, null, values);
    }

    /**
     * Rows {@code [first, first + count)} of a matrix: straight from its memory where it is a whole C-order matrix in
     * host memory, else through a copy.
     */
    public static Rows ofRange(INDArray matrix, int first, int count) {
        return ofRows(matrix, java.util.stream.IntStream.range(first, first + count).toArray());
    }

    /**
     * Writes the values into rows {@code [firstRow, firstRow + rows)} of {@code matrix}, in place: straight into its
     * memory where it is a whole C-order matrix of the same type in host memory (no array in between), else through
     * ND4J.
     */
    public void copyInto(INDArray matrix, long firstRow) {
        if (matrix.rank() != 2 || matrix.columns() != columns || firstRow < 0 || firstRow + rows > matrix.rows()) {
            throw new IllegalArgumentException("cannot write " + rows + " x " + columns + " values into rows from " + firstRow
                    + " of " + Arrays.toString(matrix.shape()));
        }
        if (!isWholeHostMatrix(matrix) || matrix.dataType() != dataType()) {
            copyTo(matrix.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(firstRow, firstRow + rows),
                    org.nd4j.linalg.indexing.NDArrayIndex.all()));
            return;
        }
        if (floats != null) {
            new FloatPointer(matrix.data().addressPointer()).position(firstRow * columns).put(floats, 0, floats.length);
        } else {
            new DoublePointer(matrix.data().addressPointer()).position(firstRow * columns).put(doubles, 0, doubles.length);
        }
    }

    /** A matrix that owns its buffer from its first element, row-major, of floats or doubles, on the CPU. */
    private static boolean isWholeHostMatrix(INDArray m) {
        return Nd4j.getEnvironment().isCPU() && m.rank() == 2 && !m.isView() && m.offset() == 0 && m.ordering() == 'c'
                && m.data().length() == m.length() && (m.dataType() == DataType.FLOAT || m.dataType() == DataType.DOUBLE);
    }

    /** The values' type. */
    public DataType dataType() {
        return floats != null ? DataType.FLOAT : DataType.DOUBLE;
    }

    /** A new [rows, columns] array outside any workspace. */
    public INDArray toArray() {
        try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
            if (!Nd4j.getEnvironment().isCPU()) {
                INDArray out = floats != null ? Nd4j.createFromArray(floats) : Nd4j.createFromArray(doubles);
                return out.reshape('c', rows, columns);
            }
            INDArray out = Nd4j.createUninitializedDetached(dataType(), rows, columns);
            if (floats != null) {
                new FloatPointer(out.data().addressPointer()).put(floats, 0, floats.length);
            } else {
                new DoublePointer(out.data().addressPointer()).put(doubles, 0, doubles.length);
            }
            return out;
        }
    }

    /** Writes the values into {@code target} ([rows, columns], any order), in place. */
    public void copyTo(INDArray target) {
        if (target.rank() != 2 || target.rows() != rows || target.columns() != columns) {
            throw new IllegalArgumentException("cannot copy " + rows + " x " + columns + " values into " + Arrays.toString(target.shape()));
        }
        target.assign(toArray().castTo(target.dataType()));
    }
}
