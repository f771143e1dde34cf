package org.dpdl4j.protocol.federated.verification;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.federated.GopaAveraging;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The verifiable reveal publishes what GopaAveraging reveals, up to fixed-point rounding, and passes verification. */
class GopaVerifiableRevealTest {
    private static final int K = 6;
    private static final int P = 4;

    @Test
    void itPublishesGopaAveragingsValuesUpToRoundingAndPasses() {
        Graph graph = Topologies.randomKOut(K, 2, 3);
        double lower = -2;
        double upper = 2;
        INDArray values = Nd4j.rand(DataType.DOUBLE, K, P).muli(upper - lower).addi(lower);
        long round = 9;
        INDArray expected = new GopaAveraging(graph, 0.3, 5.0, DataType.DOUBLE).reveal(values, new SeededNoiseStreams(21), round);
        VerifiableGopaReveal reveal = new VerifiableGopaReveal(PedersenGroup.standard(), graph, lower, upper, 0.3, 5.0);
        List<PartyContribution> contributions = reveal.reveal(values, new SeededNoiseStreams(21), round,
                VerifiableRound.repeatable(4));

        VerificationReport report = reveal.verifier(round, P).verify(contributions);
        assertTrue(report.allPassed(), report.toString());
        for (int k = 0; k < K; k++) {
            double[] published = contributions.get(k).publishedValues();
            double tolerance = (graph.degree(k) + 2) * 0x1p-17 * (upper - lower) + 1e-12;
            for (int i = 0; i < P; i++) {
                assertEquals(expected.getDouble(k, i), reveal.toValueScale(published[i]), tolerance, "party " + k + ", coordinate " + i);
            }
        }
        double[] estimate = reveal.estimate(contributions);
        INDArray gopaEstimate = GopaAveraging.estimate(expected);
        for (int i = 0; i < P; i++) {
            assertEquals(gopaEstimate.getDouble(i), estimate[i], 1e-3, "coordinate " + i);
        }
    }

    @Test
    void valuesOutsideTheDeclaredIntervalAreRefused() {
        Graph graph = Topologies.ring(K);
        VerifiableGopaReveal reveal = new VerifiableGopaReveal(PedersenGroup.standard(), graph, 0, 1, 0.1, 1.0);
        INDArray values = Nd4j.zeros(DataType.DOUBLE, K, 2).putScalar(3, 1, 1.5);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> reveal.reveal(values, new SeededNoiseStreams(1), 0, VerifiableRound.repeatable(1)));
        assertTrue(e.getMessage().contains("party 3's coordinate 1") && e.getMessage().contains("clip"), e.getMessage());
    }
}
