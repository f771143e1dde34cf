package org.dpdl4j.optim;

import java.util.Arrays;
import org.deeplearning4j.nn.api.Model;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.indexing.BooleanIndexing;
import org.nd4j.linalg.indexing.conditions.Conditions;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * The training examples of a private run, checked against the network before the first step and kept as one row per
 * example, so that every step can gather an exact sample: features [N, d] (NCHW images flattened in their own order,
 * which is how DL4J's preprocessor unflattens them) and labels [N, k]. A network whose first convolution takes
 * images as they are gets each batch back in their shape ({@link #batchFeatures}).
 *
 * <p>Every problem a later step would meet is refused here, with what was given, what the network takes and the fix.
 *
 * @param features   [N, d] in the network's data type
 * @param labels     [N, k] in the network's data type
 * @param imageShape the shape of one example to give the network ([c, h, w]), or null to give it rows
 */
record TrainingExamples(INDArray features, INDArray labels, long[] imageShape) {

    /**
     * Checks the examples against the network and stores them as rows.
     *
     * @throws IllegalArgumentException naming the problem, the network's layer and the fix
     */
    static TrainingExamples of(Model net, INDArray features, INDArray labels) {
        if (features == null || labels == null) {
            throw new IllegalArgumentException("give both the features and the labels of the training examples");
        }
        if (features.rank() == 0 || labels.rank() == 0) {
            throw new IllegalArgumentException("the features and the labels must hold one example per row, got shapes "
                    + Arrays.toString(features.shape()) + " and " + Arrays.toString(labels.shape()));
        }
        long n = features.size(0);
        if (labels.size(0) != n) {
            throw new IllegalArgumentException("the features hold " + n + " examples (rows) but the labels hold "
                    + labels.size(0) + "; give one label row per example");
        }
        if (n == 0) {
            throw new IllegalArgumentException("there are no training examples");
        }
        NetworkShape shape = NetworkShape.of(net);
        DataType type = net.params().dataType();
        INDArray rows = rowsOf(features, shape);
        INDArray labelRows = labelRowsOf(labels, shape);
        long[] image = shape.takesImageArrays() ? Arrays.copyOfRange(features.shape(), 1, 4) : null;
        return new TrainingExamples(rows.castTo(type), labelRows.castTo(type), image);
    }

    private static INDArray rowsOf(INDArray features, NetworkShape shape) {
        long n = features.size(0);
        long[] s = features.shape();
        switch (features.rank()) {
            case 1 -> throw new IllegalArgumentException("the features are a vector of " + n + " values; private training"
                    + " takes one row per example: reshape them to [" + n + ", 1] if every example is one number");
            case 2 -> {
                if (shape.takesImageArrays()) {
                    throw new IllegalArgumentException("the features are rows [" + n + ", " + s[1] + "] but "
                            + shape.inputLayer() + " takes images [batch, channels = " + shape.image()[0] + ", height,"
                            + " width]: give the images as a rank-4 NCHW array (features.reshape(" + n + ", channels, height,"
                            + " width)), or build the network with setInputType(InputType.convolutionalFlat(height, width,"
                            + " channels)) so that it takes flat rows");
                }
                requireWidth(s[1], shape, "the features have " + s[1] + " values per example");
                return features;
            }
            case 4 -> {
                long[] want = shape.image();
                if (want != null && want[0] != s[1] && s[3] == want[0]) {
                    throw new IllegalArgumentException("the images are " + Arrays.toString(s) + ", channels last (NHWC),"
                            + " but " + shape.inputLayer() + " takes " + want[0] + " channels first (NCHW): give"
                            + " features.permute(0, 3, 1, 2)");
                }
                if (want != null && (want[0] != s[1] || (want[1] > 0 && (want[1] != s[2] || want[2] != s[3])))) {
                    throw new IllegalArgumentException("the images are [" + s[1] + " channels, " + s[2] + " x " + s[3]
                            + "] but " + shape.inputLayer() + " takes [" + want[0] + " channels"
                            + (want[1] > 0 ? ", " + want[1] + " x " + want[2] + "]" : "]")
                            + ": give images of that shape, or build the network for the images you have");
                }
                requireWidth(s[1] * s[2] * s[3], shape, "the images have " + s[1] + " x " + s[2] + " x " + s[3] + " = "
                        + s[1] * s[2] * s[3] + " values each");
                return features.reshape('c', n, s[1] * s[2] * s[3]);
            }
            default -> throw new IllegalArgumentException("the features have shape " + Arrays.toString(s) + "; private"
                    + " training takes rows [N, d] or NCHW images [N, channels, height, width] (sequences and other"
                    + " ranks are not supported)");
        }
    }

    private static void requireWidth(long given, NetworkShape shape, String what) {
        if (shape.flatWidth() > 0 && given != shape.flatWidth()) {
            throw new IllegalArgumentException(what + " but " + shape.inputLayer() + " takes " + shape.flatWidth()
                    + (shape.image() != null ? " (" + shape.image()[0] + " channels of " + shape.image()[1] + " x "
                    + shape.image()[2] + ")" : "") + ": give features of that width, or build the network's input for "
                    + given);
        }
    }

    private static INDArray labelRowsOf(INDArray labels, NetworkShape shape) {
        long n = labels.size(0);
        long k = shape.outputs();
        if (labels.rank() == 1) {
            throw new IllegalArgumentException("the labels are a vector of " + n + " values, but " + shape.outputLayer()
                    + " gives " + (k > 0 ? k : "its") + " outputs per example" + oneHotHint(labels, k, n));
        }
        if (labels.rank() != 2) {
            throw new IllegalArgumentException("the labels have shape " + Arrays.toString(labels.shape()) + "; private"
                    + " training takes one label row per example, [N, outputs]");
        }
        if (k > 0 && labels.size(1) != k) {
            throw new IllegalArgumentException("the labels have " + labels.size(1) + " column" + (labels.size(1) == 1 ? "" : "s")
                    + " but " + shape.outputLayer() + " has " + k + " outputs"
                    + (labels.size(1) == 1 ? oneHotHint(labels, k, n) : ": give labels of " + k + " columns, or an output"
                    + " layer of nOut(" + labels.size(1) + ")"));
        }
        return labels;
    }

    /** The fix for labels given as class indices: one-hot encode them (when they look like indices below k). */
    private static String oneHotHint(INDArray labels, long k, long n) {
        if (k == 1) {
            return "; give them as a column: labels.reshape(" + n + ", 1)";
        }
        INDArray v = labels.reshape(labels.length()).castTo(DataType.DOUBLE);
        boolean indices = k > 1 && v.minNumber().doubleValue() >= 0 && v.maxNumber().doubleValue() < k
                && !BooleanIndexing.or(v.sub(Transforms.floor(v, true)), Conditions.notEquals(0));
        return indices
                ? "; they look like class indices 0.." + (k - 1) + ": one-hot encode them to [" + n + ", " + k + "], for"
                + " instance with ND4J's FeatureUtil.toOutcomeMatrix(indices, " + k + ")"
                : "; give one label row of " + (k > 0 ? k : "the output layer's") + " values per example";
    }

    long size() {
        return features.size(0);
    }

    /** The bytes the stored examples hold. */
    long bytes() {
        return (features.length() + labels.length()) * features.dataType().width();
    }

    /** A batch of stored feature rows in the shape the network takes. */
    INDArray batchFeatures(INDArray rows) {
        return asNetworkInput(rows, imageShape);
    }

    /** Feature rows in the shape the network takes: as they are, or as images of {@code imageShape} when it is given. */
    static INDArray asNetworkInput(INDArray rows, long[] imageShape) {
        if (imageShape == null) {
            return rows;
        }
        return rows.reshape('c', rows.size(0), imageShape[0], imageShape[1], imageShape[2]);
    }

    @Override
    public String toString() {
        return "TrainingExamples[" + Arrays.toString(features.shape()) + ", " + Arrays.toString(labels.shape()) + "]";
    }
}
