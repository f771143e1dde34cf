package org.dpdl4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Given datasets fix the number of parties; a split leaves it to the run; only the checked accessor checks it. */
class PartySourceTest {
    private static NodeData rows(int m) {
        return new NodeData(Nd4j.rand(DataType.FLOAT, m, 3), Nd4j.zeros(DataType.FLOAT, m, 2));
    }

    @Test
    void givenDatasetsFixTheCountAndAreTakenUncheckedAsTheyAre() {
        PartySource given = PartySource.given(List.of(rows(4), rows(5), rows(6)));
        assertEquals(OptionalInt.of(3), given.count());
        PartySource.Local any = given.localUnchecked(7, 1);
        assertEquals(3, any.data().size(), "the caller checks the count in its own words");
        assertNull(any.report());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> given.local(7, 1));
        assertTrue(e.getMessage().contains("7 parties but 3 local datasets"), e.getMessage());
    }

    @Test
    void aSplitLeavesTheCountToTheRunAndSplitsInto() {
        int n = 12;
        INDArray labels = Nd4j.zeros(DataType.FLOAT, n, 2);
        int[] classes = new int[n];
        for (int i = 0; i < n; i++) {
            classes[i] = i % 2;
            labels.putScalar(i, classes[i], 1.0);
        }
        TrainingSet set = new TrainingSet(Nd4j.rand(DataType.FLOAT, n, 3), labels, classes, 2);
        PartySplit roundRobin = (l, c, parties, seed) -> {
            int[][] rows = new int[parties][];
            for (int p = 0; p < parties; p++) {
                int party = p;
                rows[p] = java.util.stream.IntStream.range(0, n).filter(j -> j % parties == party).toArray();
            }
            return new PartySplit.Parties(rows, "round robin");
        };
        PartySource split = PartySource.split(set, roundRobin);
        assertTrue(split.count().isEmpty());
        PartySource.Local unchecked = split.localUnchecked(4, 9);
        PartySource.Local checked = split.local(4, 9);
        assertEquals(4, unchecked.data().size());
        assertEquals(checked.report(), unchecked.report());
        for (int p = 0; p < 4; p++) {
            assertEquals(checked.data().get(p).features(), unchecked.data().get(p).features(), "party " + p);
        }
    }
}
