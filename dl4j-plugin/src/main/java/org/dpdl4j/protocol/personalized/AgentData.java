package org.dpdl4j.protocol.personalized;

import java.util.Objects;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * One agent's training set for a linear classifier: features [m, p] and labels in {-1, +1} [m], in double.
 *
 * @param features [m, p], m >= 1
 * @param labels   [m], every entry -1 or +1
 */
public record AgentData(INDArray features, INDArray labels) {

    public AgentData {
        Objects.requireNonNull(features, "features");
        Objects.requireNonNull(labels, "labels");
        if (features.rank() != 2 || features.size(0) < 1) {
            throw new IllegalArgumentException("an agent needs features [m, p] with m >= 1, got shape "
                    + java.util.Arrays.toString(features.shape()));
        }
        if (labels.length() != features.size(0)) {
            throw new IllegalArgumentException("an agent has " + features.size(0) + " feature rows but " + labels.length() + " labels");
        }
        features = features.castTo(DataType.DOUBLE).dup('c');
        labels = labels.castTo(DataType.DOUBLE).reshape(labels.length()).dup();
        INDArray abs = org.nd4j.linalg.ops.transforms.Transforms.abs(labels, true);
        if (abs.minNumber().doubleValue() != 1 || abs.maxNumber().doubleValue() != 1) {
            throw new IllegalArgumentException("labels must be -1 or +1 (map class 0 to -1 and class 1 to +1)");
        }
        if (features.isNaN().any() || features.isInfinite().any()) {
            throw new IllegalArgumentException("an agent's features must be finite numbers");
        }
    }

    /** From 0/1 class labels, as {@code LabeledData} stores binary tasks. */
    public static AgentData ofClasses(INDArray features, int[] classes) {
        double[] y = new double[classes.length];
        for (int k = 0; k < classes.length; k++) {
            if (classes[k] != 0 && classes[k] != 1) {
                throw new IllegalArgumentException("a binary task's classes are 0 and 1, got " + classes[k] + " at row " + k);
            }
            y[k] = classes[k] == 1 ? 1 : -1;
        }
        return new AgentData(features, org.nd4j.linalg.factory.Nd4j.createFromArray(y));
    }

    /** m, the number of examples. */
    public int size() {
        return (int) features.size(0);
    }

    /** p, the dimension. */
    public int dimension() {
        return (int) features.size(1);
    }

    /**
     * The largest L1 norm of a feature row: the logistic loss's gradient {@code -y x sigma(-y theta.x)} has L1 norm at most
     * this (Theorem 1 needs it below L_0).
     */
    public double maxL1Norm() {
        return features.norm1(1).maxNumber().doubleValue();
    }

    /** The largest L2 norm of a feature row. */
    public double maxL2Norm() {
        return features.norm2(1).maxNumber().doubleValue();
    }

    /** Fraction of rows with {@code sign(x . theta) = y} (0 counts as +1). */
    public double accuracy(INDArray theta) {
        INDArray margin = features.mmul(theta.castTo(DataType.DOUBLE).reshape(theta.length(), 1)).reshape(size());
        INDArray predicted = margin.gte(0).castTo(DataType.DOUBLE).muli(2).subi(1);
        return predicted.eq(labels).castTo(DataType.DOUBLE).meanNumber().doubleValue();
    }

    /** The mean logistic loss {@code (1/m) sum_k log(1 + exp(-y_k theta.x_k))}, without the regulariser. */
    public double logisticLoss(INDArray theta) {
        INDArray margins = features.mmul(theta.castTo(DataType.DOUBLE).reshape(theta.length(), 1)).reshape(size()).muli(labels);
        // log(1 + exp(-z)) = max(-z, 0) + log(1 + exp(-|z|)): finite for any margin
        INDArray stable = Transforms.log(Transforms.exp(Transforms.abs(margins, true).negi(), false).addi(1), false);
        return (Transforms.relu(margins.neg(), false).sumNumber().doubleValue() + stable.sumNumber().doubleValue()) / size();
    }
}
