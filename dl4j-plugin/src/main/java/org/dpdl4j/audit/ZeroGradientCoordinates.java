package org.dpdl4j.audit;

import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.Locale;

/**
 * Parameter coordinates on which every training example's gradient is exactly zero, whatever the parameters: the
 * first dense layer's weights fed by an input feature that is 0 on every example (the gradient of weight (i, h) is
 * {@code x_i} times the back-propagated error of unit h). MNIST's border pixels are such features when the pixel
 * scaling keeps 0 at 0. These are where {@link DiracCanaries} see nothing but their own share and the noise.
 *
 * <p>A feature that is constant but not 0 (e.g. a border pixel after standardisation) does not qualify: its weights'
 * gradient equals the constant times the unit's bias gradient.
 *
 * @param coordinates indices into the flattened parameters, grouped by feature (its weights to units 0, 1, ...)
 * @param features    the input features that are 0 on every example
 * @param inputs      the first layer's inputs
 * @param units       the first layer's units
 */
public record ZeroGradientCoordinates(int[] coordinates, int features, long inputs, long units) {

    /**
     * Finds the coordinates for a network whose first layer is dense, from the training examples' features.
     *
     * @param network  the network to audit (read only)
     * @param features the training examples' features, [n, inputs] (the canaries are not examples and do not count)
     * @throws IllegalArgumentException when the first layer is not dense or the features do not fit it
     */
    public static ZeroGradientCoordinates find(MultiLayerNetwork network, INDArray features) {
        if (!(network.getLayerWiseConfigurations().getConf(0).getLayer() instanceof DenseLayer)) {
            throw new IllegalArgumentException("zero-gradient coordinates are found among the first layer's weights, which"
                    + " must be a dense layer; this network's first layer is "
                    + network.getLayerWiseConfigurations().getConf(0).getLayer().getClass().getSimpleName()
                    + " (use random-direction canaries instead)");
        }
        INDArray w = network.getParam("0_W");
        long inputs = w.size(0);
        long units = w.size(1);
        if (features.rank() != 2 || features.size(1) != inputs) {
            throw new IllegalArgumentException("the features must be [n, " + inputs + "] for a first layer of " + inputs
                    + " inputs, got " + java.util.Arrays.toString(features.shape()));
        }
        // Exactly 0 on every example: the largest absolute value of the feature's column is 0.
        boolean[] zero = new boolean[(int) inputs];
        double[] maxAbs = features.amax(0).toDoubleVector();
        int count = 0;
        for (int i = 0; i < inputs; i++) {
            zero[i] = maxAbs[i] == 0;
            count += zero[i] ? 1 : 0;
        }
        // The weight matrix is a view of the flattened parameters: its offset and strides give each weight's index.
        long base = w.offset() - network.params().offset();
        long rowStride = w.stride(0);
        long columnStride = w.stride(1);
        int[] coordinates = new int[Math.toIntExact(count * units)];
        int k = 0;
        for (int i = 0; i < inputs; i++) {
            if (zero[i]) {
                for (long h = 0; h < units; h++) {
                    coordinates[k++] = Math.toIntExact(base + i * rowStride + h * columnStride);
                }
            }
        }
        return new ZeroGradientCoordinates(coordinates, count, inputs, units);
    }

    /** The coordinates (a copy). */
    @Override
    public int[] coordinates() {
        return coordinates.clone();
    }

    /**
     * The first m coordinates, for m Dirac canaries.
     *
     * @throws IllegalArgumentException when fewer exist, saying how many do and what gives more
     */
    public int[] first(int m) {
        if (m > coordinates.length) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%,d Dirac canaries need as many parameters whose"
                            + " gradient is zero on every training example, and this network has %,d (%d of its %d input"
                            + " features are 0 on every example, times %d first-layer units); use at most %,d canaries, a"
                            + " wider first layer, or data whose unused features are exactly 0 (a scaling that keeps 0"
                            + " at 0)", m, coordinates.length, features, inputs, units,
                    coordinates.length));
        }
        return java.util.Arrays.copyOf(coordinates, m);
    }
}
