package org.dpdl4j.attacks.observe;

import java.util.SplittableRandom;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.InputNormalization;
import org.dpdl4j.models.ImageShape;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/** Small random 4x4 examples for the observer tests. */
final class RandomExamples {
    static final ImageShape SHAPE = new ImageShape(1, 4, 4);

    private RandomExamples() {
    }

    /** {@code m} random 16-pixel examples with labels drawn from {@code classes}. */
    static GroundTruth of(int m, int classes, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] values = new double[m * 16];
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextDouble();
        }
        int[] labels = new int[m];
        for (int i = 0; i < m; i++) {
            labels[i] = random.nextInt(classes);
        }
        return new GroundTruth(Nd4j.create(values, new long[] {m, 16}, DataType.DOUBLE), labels, SHAPE,
                InputNormalization.NONE);
    }

    /** Example {@code r} of {@code data} as a batch of one. */
    static GroundTruth row(GroundTruth data, int r) {
        return new GroundTruth(data.inputs().getRow(r).dup().reshape(1, 16), new int[] {data.labels()[r]}, SHAPE,
                InputNormalization.NONE);
    }
}
