package org.dpdl4j.runtime.engine;

import java.io.Serializable;
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
