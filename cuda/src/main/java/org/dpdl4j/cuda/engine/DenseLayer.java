package org.dpdl4j.cuda.engine;

/**
 * One fully connected layer and where its parameters lie in the flat parameter vector: the weights W (nIn x nOut,
 * column-major, so column k is nIn consecutive values: DL4J's layout) from {@code weightOffset}, then the bias.
 *
 * @param nIn          inputs
 * @param nOut         outputs
 * @param activation   the activation of a hidden layer (ignored for the output layer, whose loss fixes it)
 * @param hasBias      whether a bias vector follows the weights
 * @param weightOffset the offset of W in the flat parameters
 */
public record DenseLayer(int nIn, int nOut, Activation activation, boolean hasBias, long weightOffset) {
    public DenseLayer {
        if (nIn < 1 || nOut < 1) {
            throw new IllegalArgumentException("a dense layer needs nIn and nOut >= 1, got " + nIn + " x " + nOut);
        }
        if (weightOffset < 0) {
            throw new IllegalArgumentException("weight offset must be >= 0, got " + weightOffset);
        }
    }

    /** Offset of the bias (meaningful with {@link #hasBias()}). */
    public long biasOffset() {
        return weightOffset + (long) nIn * nOut;
    }

    /** Weights and bias. */
    public long paramCount() {
        return (long) nIn * nOut + (hasBias ? nOut : 0);
    }
}
