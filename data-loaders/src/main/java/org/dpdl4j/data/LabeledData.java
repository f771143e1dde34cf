package org.dpdl4j.data;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.Objects;
import java.util.SplittableRandom;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A classification data set held in memory: one row of FLOAT features and one 0-based class label
 * per example.
 *
 * <p>Instances are immutable by convention: {@link #features()} returns the stored array without a
 * copy (copying 60,000 x 784 floats on every access would be wasteful), so callers must not write
 * into it. Every operation that selects rows ({@link #subset}, {@link #shuffled}, {@link #split})
 * copies them.
 */
public final class LabeledData {
    private final String name;
    private final INDArray features;
    private final int[] labels;
    private final int numClasses;

    /**
     * @param name       a short name used in reports and error messages ("mnist-train")
     * @param features   an n x d FLOAT matrix, one example per row (n &ge; 1)
     * @param labels     n class indices, each in {@code 0..numClasses-1}
     * @param numClasses the number of classes k &ge; 1 (some may have no examples in this set)
     */
    public LabeledData(String name, INDArray features, int[] labels, int numClasses) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(features, "features");
        Objects.requireNonNull(labels, "labels");
        if (name.isBlank()) {
            throw new IllegalArgumentException("data set name must not be blank");
        }
        if (features.rank() != 2) {
            throw new IllegalArgumentException(name + ": features must be a 2-d matrix (examples x features), got shape "
                    + Arrays.toString(features.shape()));
        }
        if (features.dataType() != DataType.FLOAT) {
            throw new IllegalArgumentException(name + ": features must be FLOAT, got " + features.dataType()
                    + "; convert them with features.castTo(DataType.FLOAT)");
        }
        if (features.rows() != labels.length) {
            throw new IllegalArgumentException(name + ": " + features.rows() + " feature rows but " + labels.length
                    + " labels; each example needs exactly one label");
        }
        if (labels.length == 0) {
            throw new IllegalArgumentException(name + ": a data set needs at least one example");
        }
        if (numClasses < 1) {
            throw new IllegalArgumentException(name + ": the number of classes must be at least 1, got " + numClasses);
        }
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] < 0 || labels[i] >= numClasses) {
                throw new IllegalArgumentException(name + ": label " + labels[i] + " of example " + i
                        + " is outside 0.." + (numClasses - 1) + "; labels are 0-based class indices");
            }
        }
        this.name = name;
        this.features = features;
        this.labels = labels.clone();
        this.numClasses = numClasses;
    }

    /** The name given at construction. */
    public String name() {
        return name;
    }

    /** The n x d FLOAT feature matrix (not a copy: do not modify it). */
    public INDArray features() {
        return features;
    }

    /** A copy of the n class labels. */
    public int[] labels() {
        return labels.clone();
    }

    /** The class label of example {@code row}. */
    public int label(int row) {
        return labels[row];
    }

    /** The number of classes k. */
    public int numClasses() {
        return numClasses;
    }

    /** The number of examples n. */
    public int size() {
        return labels.length;
    }

    /** The number of features d. */
    public int numFeatures() {
        return features.columns();
    }

    /** The examples at the given row indices, in that order (duplicates allowed), as a new data set. */
    public LabeledData subset(int[] rows) {
        return subset(rows, name);
    }

    private LabeledData subset(int[] rows, String newName) {
        Objects.requireNonNull(rows, "rows");
        if (rows.length == 0) {
            throw new IllegalArgumentException(name + ": cannot take an empty subset; pass at least one row index");
        }
        int[] newLabels = new int[rows.length];
        for (int i = 0; i < rows.length; i++) {
            int r = rows[i];
            if (r < 0 || r >= labels.length) {
                throw new IllegalArgumentException(name + ": row index " + r + " at position " + i
                        + " is outside 0.." + (labels.length - 1));
            }
            newLabels[i] = labels[r];
        }
        INDArray rowsCopy = Nd4j.pullRows(features, 1, rows);
        return new LabeledData(newName, rowsCopy, newLabels, numClasses);
    }

    /** All examples in a random order that depends only on the seed. */
    public LabeledData shuffled(long seed) {
        return subset(RandomStreams.permutation(size(), RandomStreams.stream(seed, "shuffle", 0)), name);
    }

    /**
     * A random split into a training part of {@code round(trainFraction * n)} examples and a test part
     * with the rest. The same seed gives the same split.
     *
     * <p>Error messages speak of the test fraction, {@code 1 - trainFraction}, as users choose that
     * one (the command line's {@code --test-fraction}).
     */
    public TrainTest split(double trainFraction, long seed) {
        int n = size();
        if (n < 2) {
            throw new IllegalArgumentException(name + " has only " + n + " example, too few to split into a training "
                    + "and a test set. Fix: use a data set with at least 2 examples, or one with its own test file");
        }
        String fix = "choose a test fraction from " + fraction(1.0 / n) + " to " + fraction(1 - 1.0 / n) + " (1/n to "
                + "1 - 1/n for n = " + n + " examples; --test-fraction on the command line), such as 0.2";
        if (!(trainFraction > 0 && trainFraction < 1)) {
            throw new IllegalArgumentException(name + ": the test fraction " + fraction(1 - trainFraction)
                    + " (training fraction " + fraction(trainFraction) + ") must lie strictly between 0 and 1. Fix: "
                    + fix);
        }
        int nTrain = (int) Math.round(trainFraction * n);
        if (nTrain < 1 || nTrain > n - 1) {
            throw new IllegalArgumentException(name + ": a test fraction of " + fraction(1 - trainFraction) + " of " + n
                    + " examples leaves the " + (nTrain < 1 ? "training" : "test") + " set empty (" + nTrain
                    + " train, " + (n - nTrain) + " test). Fix: " + fix);
        }
        SplittableRandom rng = RandomStreams.stream(seed, "split", 0);
        int[] perm = RandomStreams.permutation(n, rng);
        return new TrainTest(subset(Arrays.copyOfRange(perm, 0, nTrain), name + "/train"),
                subset(Arrays.copyOfRange(perm, nTrain, n), name + "/test"));
    }

    /** A fraction for messages: 1 - 0.8 prints as 0.2, not 0.19999999999999996. */
    private static String fraction(double f) {
        if (!Double.isFinite(f)) {
            return Double.toString(f);
        }
        return new BigDecimal(f).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }

    /** The number of examples of each class, indexed by class. */
    public int[] labelHistogram() {
        int[] h = new int[numClasses];
        for (int l : labels) {
            h[l]++;
        }
        return h;
    }

    /** The label matrix in the given encoding (FLOAT): n x k for one-hot, n x 1 for binary. */
    public INDArray labelMatrix(LabelEncoding encoding) {
        Objects.requireNonNull(encoding, "encoding");
        int n = size();
        return switch (encoding) {
            case ONE_HOT -> {
                float[] m = new float[n * numClasses];
                for (int i = 0; i < n; i++) {
                    m[i * numClasses + labels[i]] = 1f;
                }
                yield Nd4j.create(m, new long[] {n, numClasses}, DataType.FLOAT);
            }
            case BINARY -> {
                if (numClasses != 2) {
                    throw new IllegalArgumentException(name + ": BINARY label encoding needs exactly 2 classes but this set has "
                            + numClasses + "; use LabelEncoding.ONE_HOT");
                }
                float[] m = new float[n];
                for (int i = 0; i < n; i++) {
                    m[i] = labels[i];
                }
                yield Nd4j.create(m, new long[] {n, 1}, DataType.FLOAT);
            }
        };
    }

    /** A DL4J data set with these features and the labels in the given encoding. */
    public DataSet toDataSet(LabelEncoding encoding) {
        return new DataSet(features, labelMatrix(encoding));
    }

    @Override
    public String toString() {
        return "LabeledData[" + name + ", " + size() + " x " + numFeatures() + ", " + numClasses + " classes]";
    }
}
