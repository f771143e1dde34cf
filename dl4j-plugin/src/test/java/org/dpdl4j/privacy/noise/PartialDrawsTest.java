package org.dpdl4j.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** A worker holding some parties draws exactly their rows of the all-parties draw. */
class PartialDrawsTest {
    private static final int N = 9;
    private static final int P = 5003;   // rows cross the sampler's 4096-value blocks at varying points
    private static final int[] SOME = {0, 3, 4, 8};

    @ParameterizedTest
    @EnumSource(value = DataType.class, names = {"FLOAT", "DOUBLE"})
    void seededPartialDrawsAreTheRowsOfTheWholeDraw(DataType type) {
        NoiseStreams streams = new SeededNoiseStreams(11);
        INDArray base = Nd4j.rand(type, N, P);

        INDArray all = base.dup();
        streams.addPrivateNoise(all, 4, 0.7);
        INDArray some = Nd4j.pullRows(base, 1, SOME);
        streams.addPrivateNoise(some, SOME, 4, 0.7);
        assertRows(all, some, "private noise added");

        streams.writePrivateNoise(all, 5, 0.7);
        streams.writePrivateNoise(some, SOME, 5, 0.7);
        assertRows(all, some, "private noise written");

        streams.writePairwiseNoise(all, 5, 1.3);
        streams.writePairwiseNoise(some, SOME, 5, 1.3);
        assertRows(all, some, "pairwise noise");
    }

    @Test
    void rowByRowStreamsDrawTheSameRowsOnlyFromTheirOwnKeys() {
        Graph ring = Topologies.ring(N);
        SecureNoiseStreams streams = new SecureNoiseStreams(ring);
        NoiseStreams restricted = streams.restrictedTo(SOME, new int[]{0, 2, 3});
        INDArray all = Nd4j.zeros(DataType.FLOAT, N, P);
        streams.addPrivateNoise(all, 2, 1.0);
        INDArray some = Nd4j.zeros(DataType.FLOAT, SOME.length, P);
        restricted.addPrivateNoise(some, SOME, 2, 1.0);
        assertRows(all, some, "secure private noise");
        INDArray edges = Nd4j.zeros(DataType.FLOAT, 3, P);
        restricted.writePairwiseNoise(edges, new int[]{0, 2, 3}, 2, 1.0);
        INDArray allEdges = Nd4j.zeros(DataType.FLOAT, ring.edgeCount(), P);
        streams.writePairwiseNoise(allEdges, 2, 1.0);
        assertArrayEquals(allEdges.getRow(3).toFloatVector(), edges.getRow(2).toFloatVector());
        assertThrows(IllegalStateException.class, () -> restricted.privateNoise(1, 2));
        assertThrows(IllegalStateException.class, () -> restricted.pairwiseNoise(1, 2));
    }

    @Test
    void partyIdsMustIncreaseAndMatchTheRows() {
        NoiseStreams streams = new SeededNoiseStreams(1);
        assertThrows(IllegalArgumentException.class, () -> streams.addPrivateNoise(Nd4j.zeros(2, 3), new int[]{3, 1}, 0, 1.0));
        assertThrows(IllegalArgumentException.class, () -> streams.addPrivateNoise(Nd4j.zeros(2, 3), new int[]{1}, 0, 1.0));
    }

    private static void assertRows(INDArray all, INDArray some, String what) {
        for (int r = 0; r < SOME.length; r++) {
            if (all.dataType() == DataType.FLOAT) {
                assertArrayEquals(all.getRow(SOME[r]).toFloatVector(), some.getRow(r).toFloatVector(), what + ", row " + SOME[r]);
            } else {
                assertArrayEquals(all.getRow(SOME[r]).toDoubleVector(), some.getRow(r).toDoubleVector(), what + ", row " + SOME[r]);
            }
        }
    }
}
