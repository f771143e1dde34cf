package org.dpdl4j.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.junit.jupiter.api.Test;

class LabeledDataTest {

    /** n examples whose first feature is the row index, so rows can be traced through operations. */
    static LabeledData traced(int n, int numClasses) {
        float[] x = new float[n * 3];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            x[i * 3] = i;
            x[i * 3 + 1] = -i;
            x[i * 3 + 2] = 0.5f;
            y[i] = i % numClasses;
        }
        return new LabeledData("traced", Nd4j.create(x, new long[] {n, 3}, DataType.FLOAT), y, numClasses);
    }

    private static int[] firstColumn(LabeledData d) {
        int[] ids = new int[d.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = (int) d.features().getFloat(i, 0);
        }
        return ids;
    }

    @Test
    void basicShape() {
        LabeledData d = traced(10, 3);
        assertEquals(10, d.size());
        assertEquals(3, d.numFeatures());
        assertEquals(3, d.numClasses());
        assertArrayEquals(new int[] {4, 3, 3}, d.labelHistogram());
        assertEquals("LabeledData[traced, 10 x 3, 3 classes]", d.toString());
    }

    @Test
    void subsetKeepsFeaturesAndLabelsTogether() {
        LabeledData d = traced(10, 3);
        LabeledData s = d.subset(new int[] {7, 2, 2});
        assertArrayEquals(new int[] {7, 2, 2}, firstColumn(s));
        assertArrayEquals(new int[] {1, 2, 2}, s.labels());
        assertEquals(-7f, s.features().getFloat(0, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.subset(new int[] {1, 10}));
        assertTrue(e.getMessage().contains("row index 10 at position 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> d.subset(new int[0]));
    }

    @Test
    void shuffledIsADeterministicPermutation() {
        LabeledData d = traced(200, 4);
        int[] a = firstColumn(d.shuffled(5));
        int[] b = firstColumn(d.shuffled(5));
        int[] c = firstColumn(d.shuffled(6));
        assertArrayEquals(a, b);
        assertFalse(Arrays.equals(a, c));
        int[] sorted = a.clone();
        Arrays.sort(sorted);
        assertArrayEquals(RandomStreams.identity(200), sorted);
        LabeledData s = d.shuffled(5);
        for (int i = 0; i < s.size(); i++) {
            assertEquals(a[i] % 4, s.label(i), "label must follow its row");
        }
    }

    @Test
    void splitIsDisjointCompleteAndDeterministic() {
        LabeledData d = traced(101, 2);
        TrainTest tt = d.split(0.8, 9);
        assertEquals(81, tt.train().size());
        assertEquals(20, tt.test().size());
        Set<Integer> seen = new HashSet<>();
        for (int id : firstColumn(tt.train())) {
            assertTrue(seen.add(id));
        }
        for (int id : firstColumn(tt.test())) {
            assertTrue(seen.add(id));
        }
        assertEquals(101, seen.size());
        assertArrayEquals(firstColumn(tt.test()), firstColumn(d.split(0.8, 9).test()));
        assertFalse(Arrays.equals(firstColumn(tt.test()), firstColumn(d.split(0.8, 10).test())));
        assertEquals("traced/train", tt.train().name());
    }

    @Test
    void splitErrorsSpeakOfTheTestFractionTheUserChose() {
        LabeledData d = traced(10, 2);
        String allTest = assertThrows(IllegalArgumentException.class, () -> d.split(1.0 - 1.0, 1)).getMessage();
        assertMentions(allTest, "the test fraction 1 (training fraction 0) must lie strictly between 0 and 1",
                "Fix: choose a test fraction from 0.1 to 0.9", "--test-fraction");
        String noTest = assertThrows(IllegalArgumentException.class, () -> d.split(1.0, 1)).getMessage();
        assertMentions(noTest, "the test fraction 0 (training fraction 1)");
        String nan = assertThrows(IllegalArgumentException.class, () -> d.split(Double.NaN, 1)).getMessage();
        assertMentions(nan, "the test fraction NaN");
        // 1 - 0.9 is 0.09999999999999998 in double arithmetic; the message shows the 0.9 the user typed.
        String tooSmall = assertThrows(IllegalArgumentException.class, () -> traced(3, 2).split(1 - 0.9, 1)).getMessage();
        assertMentions(tooSmall, "a test fraction of 0.9 of 3 examples leaves the training set empty (0 train, 3 test)",
                "from 0.333333 to 0.666667");
        String single = assertThrows(IllegalArgumentException.class, () -> traced(1, 2).split(0.5, 1)).getMessage();
        assertMentions(single, "has only 1 example, too few to split");
        for (String m : new String[] {allTest, noTest, tooSmall}) {
            assertFalse(m.contains("trainFraction"), m);
        }
    }

    private static void assertMentions(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "lacks '" + part + "': " + message);
        }
    }

    @Test
    void oneHotAndBinaryEncodings() {
        LabeledData d = traced(5, 3);
        DataSet ds = d.toDataSet(LabelEncoding.ONE_HOT);
        assertArrayEquals(new long[] {5, 3}, ds.getLabels().shape());
        assertEquals(DataType.FLOAT, ds.getLabels().dataType());
        for (int i = 0; i < 5; i++) {
            for (int c = 0; c < 3; c++) {
                assertEquals(c == i % 3 ? 1f : 0f, ds.getLabels().getFloat(i, c));
            }
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> d.toDataSet(LabelEncoding.BINARY));
        assertTrue(e.getMessage().contains("exactly 2 classes") && e.getMessage().contains("ONE_HOT"), e.getMessage());
        LabeledData two = traced(4, 2);
        INDArray bin = two.labelMatrix(LabelEncoding.BINARY);
        assertArrayEquals(new long[] {4, 1}, bin.shape());
        assertArrayEquals(new float[] {0, 1, 0, 1}, bin.data().asFloat());
    }

    @Test
    void constructorRejectsInconsistentInput() {
        INDArray x = Nd4j.zeros(DataType.FLOAT, 3, 2);
        IllegalArgumentException count = assertThrows(IllegalArgumentException.class,
                () -> new LabeledData("d", x, new int[] {0, 1}, 2));
        assertTrue(count.getMessage().contains("3 feature rows but 2 labels"), count.getMessage());
        IllegalArgumentException range = assertThrows(IllegalArgumentException.class,
                () -> new LabeledData("d", x, new int[] {0, 2, 1}, 2));
        assertTrue(range.getMessage().contains("label 2 of example 1"), range.getMessage());
        IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
                () -> new LabeledData("d", Nd4j.zeros(DataType.DOUBLE, 3, 2), new int[] {0, 1, 1}, 2));
        assertTrue(type.getMessage().contains("castTo(DataType.FLOAT)"), type.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new LabeledData("d", Nd4j.zeros(DataType.FLOAT, 3),
                new int[] {0, 1, 1}, 2));
    }

    @Test
    void labelsAreDefensivelyCopied() {
        int[] y = {0, 1};
        LabeledData d = new LabeledData("d", Nd4j.zeros(DataType.FLOAT, 2, 1), y, 2);
        y[0] = 1;
        d.labels()[1] = 0;
        assertArrayEquals(new int[] {0, 1}, d.labels());
    }

    @Test
    void trainTestMustAgree() {
        LabeledData a = traced(4, 2);
        LabeledData b = traced(4, 3);
        assertThrows(IllegalArgumentException.class, () -> new TrainTest(a, b));
    }
}
