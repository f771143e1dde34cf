package org.dpdl4j.data.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.dpdl4j.data.LabeledData;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

class PartitionerTest {
    /** 10 classes x 300 examples, labels cycling 0..9. */
    private static final int[] LABELS = cyclic(3000, 10);

    private static int[] cyclic(int n, int k) {
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % k;
        }
        return y;
    }

    private static final List<Partitioner> ALL = List.of(Partitioner.iid(), Partitioner.dirichlet(0.5),
            Partitioner.dirichlet(1000), Partitioner.shards(2));

    /** Every index 0..n-1 appears in exactly one node. */
    private static void assertExactCover(Partition p, int n) {
        int[] seen = new int[n];
        for (int k = 0; k < p.nodes(); k++) {
            assertTrue(p.size(k) > 0, "node " + k + " is empty");
            for (int i : p.indices(k)) {
                seen[i]++;
            }
        }
        for (int i = 0; i < n; i++) {
            assertEquals(1, seen[i], "example " + i);
        }
        assertEquals(n, Arrays.stream(p.sizes()).sum());
    }

    @Test
    void everyStrategyAssignsEachExampleExactlyOnceAndIsDeterministic() {
        for (Partitioner s : ALL) {
            Partition a = s.partition(LABELS, 10, 8, 77);
            assertExactCover(a, LABELS.length);
            Partition b = s.partition(LABELS, 10, 8, 77);
            Partition c = s.partition(LABELS, 10, 8, 78);
            boolean differs = false;
            for (int k = 0; k < 8; k++) {
                assertArrayEquals(a.indices(k), b.indices(k), s + " node " + k);
                differs |= !Arrays.equals(a.indices(k), c.indices(k));
            }
            assertTrue(differs, s + " gives the same partition for two seeds");
            int[][] h = a.labelHistograms();
            for (int k = 0; k < 8; k++) {
                assertEquals(a.size(k), Arrays.stream(h[k]).sum());
            }
        }
    }

    @Test
    void iidSizesDifferByAtMostOne() {
        Partition p = Partitioner.iid().partition(LABELS, 10, 7, 1);
        int[] sizes = p.sizes();
        assertTrue(Arrays.stream(sizes).max().getAsInt() - Arrays.stream(sizes).min().getAsInt() <= 1,
                Arrays.toString(sizes));
    }

    /** The mean over nodes of the largest class share at the node. */
    private static double meanMaxShare(Partition p) {
        double s = 0;
        for (int k = 0; k < p.nodes(); k++) {
            s += (double) Arrays.stream(p.labelHistogram(k)).max().getAsInt() / p.size(k);
        }
        return s / p.nodes();
    }

    @Test
    void dirichletWithLargeAlphaIsNearlyIid() {
        Partition p = Partitioner.dirichlet(1e4).partition(LABELS, 10, 5, 3);
        for (int k = 0; k < 5; k++) {
            for (int c = 0; c < 10; c++) {
                // each class has 300 examples, so about 60 per node
                assertEquals(60, p.labelHistogram(k)[c], 8, "node " + k + " class " + c);
            }
        }
        assertTrue(meanMaxShare(p) < 0.15);
    }

    @Test
    void dirichletWithSmallAlphaIsSkewed() {
        Partition p = Partitioner.dirichlet(0.1).partition(LABELS, 10, 5, 3);
        assertExactCover(p, LABELS.length);
        assertTrue(meanMaxShare(p) > 0.4, "mean largest class share " + meanMaxShare(p));
        assertTrue(meanMaxShare(Partitioner.iid().partition(LABELS, 10, 5, 3)) < 0.15);
    }

    @Test
    void shardsGiveEachNodeFewClasses() {
        Partition p = Partitioner.shards(2).partition(LABELS, 10, 10, 5);
        for (int k = 0; k < 10; k++) {
            assertEquals(300, p.size(k));
            long classes = Arrays.stream(p.labelHistogram(k)).filter(c -> c > 0).count();
            assertTrue(classes <= 2, "node " + k + " has " + classes + " classes"); // 20 shards of 150: one class each
        }
    }

    @Test
    void largestRemainderSumsExactly() {
        int[] c = DirichletPartitioner.largestRemainder(new double[] {0.5, 0.25, 0.25}, 7);
        assertEquals(7, Arrays.stream(c).sum());
        assertArrayEquals(new int[] {3, 2, 2}, c); // 3.5, 1.75, 1.75: the two extra go to the remainders 0.75
        // 0.4 * 5 = 2 exactly and 0.3 * 5 = 1.5 twice: one extra, and the tie goes to the lower index
        assertArrayEquals(new int[] {2, 2, 1}, DirichletPartitioner.largestRemainder(new double[] {0.4, 0.3, 0.3}, 5));
        assertArrayEquals(new int[] {0, 0}, DirichletPartitioner.largestRemainder(new double[] {0.3, 0.7}, 0));
    }

    @Test
    void clearErrors() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> Partitioner.iid().partition(LABELS, 10, 0, 1));
        assertTrue(zero.getMessage().contains("at least 1"), zero.getMessage());
        IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
                () -> Partitioner.iid().partition(new int[] {0, 1, 0}, 2, 4, 1));
        assertTrue(tooMany.getMessage().contains("only 3 examples"), tooMany.getMessage());
        IllegalArgumentException alpha = assertThrows(IllegalArgumentException.class, () -> Partitioner.dirichlet(0));
        assertTrue(alpha.getMessage().contains("alpha"), alpha.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Partitioner.dirichlet(-1));
        assertThrows(IllegalArgumentException.class, () -> Partitioner.dirichlet(Double.NaN));
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
                () -> Partitioner.dirichlet(0.01).partition(cyclic(40, 2), 2, 20, 1));
        assertTrue(empty.getMessage().contains("leaves node") && empty.getMessage().contains("larger alpha")
                && empty.getMessage().contains("fewer nodes"), empty.getMessage());
        IllegalArgumentException shards = assertThrows(IllegalArgumentException.class,
                () -> Partitioner.shards(5).partition(cyclic(40, 2), 2, 10, 1));
        assertTrue(shards.getMessage().contains("50 shards"), shards.getMessage());
        IllegalArgumentException label = assertThrows(IllegalArgumentException.class,
                () -> Partitioner.iid().partition(new int[] {0, 3}, 2, 1, 1));
        assertTrue(label.getMessage().contains("label 3 of example 1"), label.getMessage());
    }

    @Test
    void partitionRejectsOverlapsAndGaps() {
        int[] y = {0, 1, 0};
        IllegalArgumentException overlap = assertThrows(IllegalArgumentException.class,
                () -> new Partition("t", new int[][] {{0, 1}, {1, 2}}, y, 2));
        assertTrue(overlap.getMessage().contains("both node 0 and node 1"), overlap.getMessage());
        IllegalArgumentException gap = assertThrows(IllegalArgumentException.class,
                () -> new Partition("t", new int[][] {{0}, {2}}, y, 2));
        assertTrue(gap.getMessage().contains("example 1 is assigned to no node"), gap.getMessage());
    }

    @Test
    void nodeDataAndReport() {
        int n = 12;
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = i;
        }
        LabeledData data = new LabeledData("toy", Nd4j.create(x, new long[] {n, 1}, DataType.FLOAT), cyclic(n, 3), 3);
        Partition p = Partitioner.iid().partition(data, 3, 4);
        List<LabeledData> nodes = p.apply(data);
        assertEquals(3, nodes.size());
        for (int k = 0; k < 3; k++) {
            int[] idx = p.indices(k);
            LabeledData d = nodes.get(k);
            assertEquals("toy/node" + k, d.name());
            for (int r = 0; r < idx.length; r++) {
                assertEquals(idx[r], d.features().getFloat(r, 0));
                assertEquals(idx[r] % 3, d.label(r));
            }
        }
        String report = p.report();
        assertTrue(report.startsWith("iid partition (seed 4): 12 examples over 3 nodes"), report);
        assertTrue(report.contains("node") && report.contains("total") && report.contains("c2"), report);
        assertEquals(6, report.split("\n").length, report);
        LabeledData other = new LabeledData("other", Nd4j.zeros(DataType.FLOAT, 5, 1), cyclic(5, 3), 3);
        assertThrows(IllegalArgumentException.class, () -> p.nodeData(other, 0));
        assertFalse(p.toString().isEmpty());
    }
}
