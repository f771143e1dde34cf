package org.dpdl4j.attacks.matching;

import java.util.Arrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Reads the parts of a flat vector of unknowns as arrays, and writes their gradients back. */
final class Unknowns {
    private Unknowns() {
    }

    /** The dummy inputs, {@code batchSize x inputSize}. */
    static INDArray inputs(double[] point, UnknownLayout layout, DataType dataType) {
        return block(point, 0, layout.batchSize(), layout.inputSize(), dataType);
    }

    /** The dummy label logits, {@code batchSize x labelSize}; only when labels are optimised. */
    static INDArray labelLogits(double[] point, UnknownLayout layout, DataType dataType) {
        return block(point, layout.labelOffset(), layout.batchSize(), layout.labelSize(), dataType);
    }

    /** The fitted scale {@code exp(rho)}, or 1 when the scale is known. */
    static double scale(double[] point, UnknownLayout layout) {
        return layout.fittedScale() ? Math.exp(point[layout.scaleOffset()]) : 1.0;
    }

    private static INDArray block(double[] point, int offset, int rows, long columns, DataType dataType) {
        double[] values = Arrays.copyOfRange(point, offset, (int) (offset + rows * columns));
        return Nd4j.create(values, new long[] {rows, columns}, dataType);
    }

    /** Writes {@code dD/dx'}, {@code dD/du'} (may be null when labels are fixed) and {@code dD/drho}. */
    static void writeGradient(double[] gradient, UnknownLayout layout, INDArray inputs, INDArray labelLogits,
                              double logScale) {
        copyInto(gradient, 0, inputs);
        if (layout.optimisesLabels()) {
            copyInto(gradient, layout.labelOffset(), labelLogits);
        }
        if (layout.fittedScale()) {
            gradient[layout.scaleOffset()] = logScale;
        }
    }

    private static void copyInto(double[] gradient, int offset, INDArray block) {
        INDArray contiguous = block.ordering() == 'c' && !block.isView() && block.length() == block.data().length()
                ? block : block.dup('c');
        double[] values = contiguous.data().asDouble();
        System.arraycopy(values, 0, gradient, offset, (int) block.length());
    }
}
