package org.dpdl4j.attacks;

import java.util.Arrays;
import java.util.Objects;
import org.dpdl4j.models.ImageShape;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The attacked examples, used to score reconstructions (never shown to the attack).
 *
 * @param inputs        model inputs, one row per example ({@code B x c*h*w}, channels first)
 * @param labels        class of each example (0/1 for a single sigmoid output)
 * @param shape         image shape of one row
 * @param normalization how pixels became inputs
 */
public record GroundTruth(INDArray inputs, int[] labels, ImageShape shape, InputNormalization normalization) {

    public GroundTruth {
        Objects.requireNonNull(inputs, "ground truth inputs must not be null");
        Objects.requireNonNull(labels, "ground truth labels must not be null");
        Objects.requireNonNull(shape, "image shape must not be null");
        Objects.requireNonNull(normalization, "normalization must not be null (use InputNormalization.NONE)");
        if (inputs.rank() != 2 || inputs.size(1) != shape.flatSize()) {
            throw new IllegalArgumentException("ground truth inputs must be B x " + shape.flatSize() + " for images "
                    + shape + ", got shape " + Arrays.toString(inputs.shape()));
        }
        if (labels.length != inputs.size(0)) {
            throw new IllegalArgumentException("ground truth has " + inputs.size(0) + " inputs but " + labels.length
                    + " labels");
        }
        inputs = inputs.dup();
        labels = labels.clone();
    }

    /** Number of examples. */
    public int size() {
        return labels.length;
    }

    /** Example {@code i} as pixels in [0, 1]. */
    public double[] pixels(int i) {
        double[] row = inputs.getRow(i).castTo(DataType.DOUBLE).dup().toDoubleVector();
        return normalization.toPixels(row);
    }

    @Override
    public int[] labels() {
        return labels.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GroundTruth g && inputs.equals(g.inputs) && Arrays.equals(labels, g.labels)
                && shape.equals(g.shape) && normalization.equals(g.normalization);
    }

    @Override
    public int hashCode() {
        return Objects.hash(shape, normalization, Arrays.hashCode(labels));
    }

    @Override
    public String toString() {
        return "GroundTruth[" + labels.length + " x " + shape + ", labels " + Arrays.toString(labels) + "]";
    }
}
