package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.noise.PairwiseNoise;
import org.dpdl4j.privacy.noise.RowByRowStreams;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.privacy.noise.SecureNoiseStreams;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoundNoiseTest {

    @Test
    void drawsSharedRowByRowEqualTheSingleTaskDraws() {
        Graph torus = Topologies.torus(3, 3);   // four terms per node row
        int p = 20_000;                         // long enough rows for B U to be combined row by row
        PairwiseNoise pairwise = new PairwiseNoise(torus, DataType.FLOAT);
        assertTrue(pairwise.combinesByRow(p));
        for (double sigmaCor : new double[]{1.3, 0.0}) {
            try (RoundNoise shared = new RoundNoise(new RowByRowStreams(new SeededNoiseStreams(5), true), pairwise, 9, p, 0.7, sigmaCor,
                    false, DataType.FLOAT, true);
                 RoundNoise single = new RoundNoise(new RowByRowStreams(new SeededNoiseStreams(5), false), pairwise, 9, p, 0.7, sigmaCor,
                         false, DataType.FLOAT, true)) {
                for (long round = 0; round < 6; round++) {
                    // Asked for right after the previous round: the look-ahead has only just started, so this thread
                    // takes part of the row tasks.
                    RoundNoise.Draw a = shared.forRound(round);
                    RoundNoise.Draw b = single.forRound(round);
                    assertArrayEquals(b.total().ravel().toFloatVector(), a.total().ravel().toFloatVector(), 0f, "round " + round);
                    if (sigmaCor > 0) {
                        assertArrayEquals(b.edgeNoise().ravel().toFloatVector(), a.edgeNoise().ravel().toFloatVector(), 0f);
                    } else {
                        assertNull(a.edgeNoise());
                    }
                }
            }
        }
    }

    @Test
    void secureStreamsDrawRowByRowAndSeededStreamsDoNot() {
        assertTrue(new SecureNoiseStreams(Topologies.ring(3)).drawsRowByRow());
        assertFalse(new SeededNoiseStreams(1).drawsRowByRow());
    }
}
