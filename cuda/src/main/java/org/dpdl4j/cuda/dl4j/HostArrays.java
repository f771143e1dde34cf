package org.dpdl4j.cuda.dl4j;

import org.bytedeco.javacpp.FloatPointer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The host memory of an ND4J array as the engine copies it: float32 values, contiguous, in row-major order, from the
 * pointer's position. Arrays that are not (another type, a strided view, column-major matrices) are copied into one
 * that is first; the caller keeps the returned array alive while the pointer is used.
 */
final class HostArrays {
    private HostArrays() {
    }

    /** The array itself when its memory is already as the engine reads it, else a row-major float32 copy. */
    static INDArray rowMajorFloats(INDArray a) {
        boolean contiguous = a.elementWiseStride() == 1 && (a.ordering() == 'c' || a.isVectorOrScalar() || a.rank() < 2);
        boolean ownBuffer = a.offset() == 0 || a.data().length() == a.length();
        if (a.dataType() == DataType.FLOAT && contiguous && ownBuffer) {
            return a;
        }
        return a.castTo(DataType.FLOAT).dup('c');
    }

    /**
     * A pointer to the first value of an array {@link #rowMajorFloats} returned (its buffer starts at the array), at
     * position 0: the CUDA copies take the address as it is.
     */
    static FloatPointer pointer(INDArray rowMajor) {
        FloatPointer p = new FloatPointer(rowMajor.data().addressPointer());
        return p.position() == 0 ? p : p.getPointer(p.position());
    }

    /**
     * Whether {@code a}'s values can be written in place through {@link #pointer}: float32, contiguous, starting at its
     * buffer's address (a network's flat gradient view is).
     */
    static boolean writable(INDArray a) {
        return rowMajorFloats(a) == a;
    }
}
