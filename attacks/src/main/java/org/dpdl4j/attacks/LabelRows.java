package org.dpdl4j.attacks;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Label rows as a network's loss expects them: one-hot rows, or a single 0/1 column for one sigmoid output. */
public final class LabelRows {
    private LabelRows() {
    }

    /**
     * @param labels  class per example (0 or 1 when {@code outputs == 1})
     * @param outputs number of network outputs
     * @throws IllegalArgumentException for a label outside the outputs
     */
    public static INDArray of(int[] labels, long outputs, DataType dataType) {
        INDArray rows = Nd4j.zeros(dataType, labels.length, outputs);
        for (int i = 0; i < labels.length; i++) {
            long limit = outputs == 1 ? 2 : outputs;
            if (labels[i] < 0 || labels[i] >= limit) {
                throw new IllegalArgumentException("label " + labels[i] + " of example " + i + " is outside 0.."
                        + (limit - 1) + " for a network with " + outputs + " output(s)");
            }
            if (outputs == 1) {
                rows.putScalar(i, 0, labels[i]);
            } else {
                rows.putScalar(i, labels[i], 1.0);
            }
        }
        return rows;
    }
}
