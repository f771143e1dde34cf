package org.dpdl4j.runtime.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.models.Architecture;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Parties of unequal sizes, a small MLP, and a bitwise comparison: what the block-engine tests share. */
public final class PartyFixtures {
    public static final int FEATURES = 20;
    public static final int CLASSES = 3;

    private PartyFixtures() {
    }

    /** A 20-16-3 ReLU MLP in float. */
    public static MultiLayerNetwork mlp() {
        return ModelKind.MLP.network(FEATURES, CLASSES, ModelOptions.defaults().withSeed(3),
                Architecture.defaults().withHiddenLayers(List.of(16), Activation.RELU));
    }

    /** Party i holds 40 + 5 i examples of three Gaussian classes in 20 features. */
    public static List<NodeData> data(int parties, long seed) {
        Random random = new Random(seed);
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < parties; i++) {
            int m = 40 + 5 * i;
            float[] x = new float[m * FEATURES];
            float[] y = new float[m * CLASSES];
            for (int k = 0; k < m; k++) {
                int label = random.nextInt(CLASSES);
                y[k * CLASSES + label] = 1;
                for (int f = 0; f < FEATURES; f++) {
                    x[k * FEATURES + f] = (float) (random.nextGaussian() + (f % CLASSES == label ? 0.7 : 0));
                }
            }
            out.add(new NodeData(Nd4j.createFromArray(x).reshape(m, FEATURES), Nd4j.createFromArray(y).reshape(m, CLASSES)));
        }
        return out;
    }

    /** Fails unless every entry is within {@code relative} times the largest magnitude of {@code expected}. */
    public static void assertClose(INDArray expected, INDArray actual, double relative, String what) {
        assertArrayEquals(expected.shape(), actual.shape(), what);
        double scale = expected.amaxNumber().doubleValue();
        double gap = expected.castTo(DataType.DOUBLE).sub(actual.castTo(DataType.DOUBLE)).amaxNumber().doubleValue();
        org.junit.jupiter.api.Assertions.assertTrue(gap <= relative * scale,
                what + ": differs by " + gap + " against entries up to " + scale);
    }

    /** Fails unless both are null or hold the same values, bit for bit. */
    public static void assertBitwise(INDArray expected, INDArray actual, String what) {
        if (expected == null || actual == null) {
            assertEquals(expected == null, actual == null, what);
            return;
        }
        assertArrayEquals(expected.shape(), actual.shape(), what);
        if (expected.dataType() == DataType.FLOAT) {
            assertArrayEquals(expected.reshape(expected.length()).toFloatVector(), actual.reshape(actual.length()).toFloatVector(), what);
        } else {
            assertArrayEquals(expected.reshape(expected.length()).toDoubleVector(), actual.reshape(actual.length()).toDoubleVector(), what);
        }
    }
}
