package org.dpdl4j.attacks.matching;

/**
 * How the attack's unknowns sit in one flat vector: the dummy inputs ({@code batchSize} rows of
 * {@code inputSize}, row-major), then, when labels are optimised, the dummy label logits ({@code batchSize}
 * rows of {@code labelSize}), then, when the scale of the observation is fitted, its logarithm.
 *
 * @param batchSize   number of dummy examples
 * @param inputSize   length of one flat input row
 * @param labelSize   label logits per example, 0 when labels are fixed
 * @param fittedScale whether the last entry is the log of an unknown positive scale
 */
public record UnknownLayout(int batchSize, long inputSize, long labelSize, boolean fittedScale) {

    public UnknownLayout {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be >= 1, got " + batchSize);
        }
        if (inputSize < 1) {
            throw new IllegalArgumentException("input size must be >= 1, got " + inputSize);
        }
        if (labelSize < 0) {
            throw new IllegalArgumentException("label size must be >= 0, got " + labelSize);
        }
        if (dimensionOf(batchSize, inputSize, labelSize, fittedScale) > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("too many unknowns for one flat vector: batch " + batchSize
                    + " x (" + inputSize + " + " + labelSize + ")");
        }
    }

    private static long dimensionOf(int batchSize, long inputSize, long labelSize, boolean fittedScale) {
        return batchSize * (inputSize + labelSize) + (fittedScale ? 1 : 0);
    }

    /** Total number of unknowns. */
    public int dimension() {
        return (int) dimensionOf(batchSize, inputSize, labelSize, fittedScale);
    }

    /** Whether the label logits are unknowns. */
    public boolean optimisesLabels() {
        return labelSize > 0;
    }

    /** Offset of the first label logit. */
    public int labelOffset() {
        return (int) (batchSize * inputSize);
    }

    /** Offset of the log-scale entry (only meaningful when {@link #fittedScale()}). */
    public int scaleOffset() {
        return (int) (batchSize * (inputSize + labelSize));
    }
}
