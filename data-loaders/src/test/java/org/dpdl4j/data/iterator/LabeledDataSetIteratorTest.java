package org.dpdl4j.data.iterator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.RandomStreams;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;

class LabeledDataSetIteratorTest {
    /** Example i has features (i, 2i) and label i mod k. */
    private static LabeledData traced(int n, int k) {
        float[] x = new float[n * 2];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            x[2 * i] = i;
            x[2 * i + 1] = 2 * i;
            y[i] = i % k;
        }
        return new LabeledData("traced", Nd4j.create(x, new long[] {n, 2}, DataType.FLOAT), y, k);
    }

    /** The example ids of one epoch, checking that each batch's labels belong to its rows. */
    private static List<Integer> epoch(LabeledDataSetIterator it, int k, List<Integer> batchSizes) {
        List<Integer> ids = new ArrayList<>();
        while (it.hasNext()) {
            DataSet b = it.next();
            batchSizes.add(b.numExamples());
            for (int r = 0; r < b.numExamples(); r++) {
                int id = (int) b.getFeatures().getFloat(r, 0);
                assertEquals(2f * id, b.getFeatures().getFloat(r, 1));
                for (int c = 0; c < k; c++) {
                    assertEquals(c == id % k ? 1f : 0f, b.getLabels().getFloat(r, c), "row " + r);
                }
                ids.add(id);
            }
        }
        return ids;
    }

    @Test
    void eachEpochVisitsEveryExampleOnceWithAPartialLastBatch() {
        LabeledDataSetIterator it = new LabeledDataSetIterator(traced(23, 3), 5, LabelEncoding.ONE_HOT, 11);
        assertEquals(2, it.inputColumns());
        assertEquals(3, it.totalOutcomes());
        assertEquals(5, it.batch());
        assertEquals(List.of("0", "1", "2"), it.getLabels());
        List<Integer> sizes = new ArrayList<>();
        List<Integer> first = epoch(it, 3, sizes);
        assertEquals(List.of(5, 5, 5, 5, 3), sizes);
        int[] sorted = first.stream().mapToInt(Integer::intValue).sorted().toArray();
        assertArrayEquals(RandomStreams.identity(23), sorted);
        assertThrows(NoSuchElementException.class, it::next);

        it.reset();
        assertEquals(1, it.epoch());
        List<Integer> second = epoch(it, 3, new ArrayList<>());
        assertArrayEquals(sorted, second.stream().mapToInt(Integer::intValue).sorted().toArray());
        assertFalse(first.equals(second), "a new epoch must use a new permutation");
    }

    @Test
    void sameSeedSameSequenceOfEpochs() {
        LabeledData d = traced(40, 2);
        LabeledDataSetIterator a = new LabeledDataSetIterator(d, 8, LabelEncoding.ONE_HOT, 3);
        LabeledDataSetIterator b = new LabeledDataSetIterator(d, 8, LabelEncoding.ONE_HOT, 3);
        for (int e = 0; e < 3; e++) {
            assertArrayEquals(a.epochOrder(), b.epochOrder(), "epoch " + e);
            assertEquals(epoch(a, 2, new ArrayList<>()), epoch(b, 2, new ArrayList<>()));
            a.reset();
            b.reset();
        }
        LabeledDataSetIterator c = new LabeledDataSetIterator(d, 8, LabelEncoding.ONE_HOT, 4);
        assertFalse(Arrays.equals(c.epochOrder(), new LabeledDataSetIterator(d, 8, LabelEncoding.ONE_HOT, 3).epochOrder()));
    }

    @Test
    void inOrderAndBinaryLabels() {
        LabeledDataSetIterator it = LabeledDataSetIterator.inOrder(traced(6, 2), 4, LabelEncoding.BINARY);
        assertEquals(1, it.totalOutcomes());
        DataSet first = it.next();
        assertArrayEquals(new long[] {4, 1}, first.getLabels().shape());
        assertArrayEquals(new float[] {0, 1, 0, 1}, first.getLabels().data().asFloat());
        assertArrayEquals(new float[] {0, 1, 2, 3}, first.getFeatures().getColumn(0).toFloatVector());
        DataSet rest = it.next(10);
        assertEquals(2, rest.numExamples());
        assertFalse(it.hasNext());
        it.reset();
        assertArrayEquals(RandomStreams.identity(6), it.epochOrder());
    }

    @Test
    void preProcessorIsApplied() {
        LabeledDataSetIterator it = LabeledDataSetIterator.inOrder(traced(3, 2), 3, LabelEncoding.ONE_HOT);
        it.setPreProcessor(ds -> ds.getFeatures().muli(10));
        assertEquals(20f, it.next().getFeatures().getFloat(2, 0));
        assertTrue(it.resetSupported());
        assertFalse(it.asyncSupported());
    }

    @Test
    void rejectsBadBatchSizes() {
        assertThrows(IllegalArgumentException.class, () -> new LabeledDataSetIterator(traced(3, 2), 0,
                LabelEncoding.ONE_HOT, 1));
        LabeledDataSetIterator it = LabeledDataSetIterator.inOrder(traced(3, 2), 2, LabelEncoding.ONE_HOT);
        assertThrows(IllegalArgumentException.class, () -> it.next(0));
    }
}
