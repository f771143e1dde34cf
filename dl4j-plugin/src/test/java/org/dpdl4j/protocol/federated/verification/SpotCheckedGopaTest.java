package org.dpdl4j.protocol.federated.verification;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.federated.GopaAveraging;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spot-checked rounds: the challenge, honest rounds, and the survivors' average after a lie or a drop-out. */
class SpotCheckedGopaTest {
    private static final int N = 10;
    private static final int P = 12;
    private static final double C = 1.0;
    private static final double SIGMA_ETA = 0.3;

    private final Graph graph = Topologies.randomKOut(N, 2, 3);
    private final SeededNoiseStreams streams = new SeededNoiseStreams(11);

    private INDArray clipped() {
        return Nd4j.rand(DataType.DOUBLE, N, P).muli(2 * C / Math.sqrt(P)).subi(C / Math.sqrt(P));   // norm <= C
    }

    private RoundVerification round(SpotCheckedGopa gopa, INDArray clipped, List<SortedSet<Integer>> told) {
        INDArray messages = new GopaAveraging(graph, SIGMA_ETA, 4.0, DataType.DOUBLE).reveal(clipped, streams, 5);
        return gopa.verify(5, clipped, messages, streams, (r, lost) -> told.add(lost));
    }

    /** The survivors' clipped values plus their private noise, averaged: what their verified aggregate must give. */
    private double[] survivorsTruth(INDArray clipped, SortedSet<Integer> survivors) {
        INDArray eta = Nd4j.zeros(DataType.DOUBLE, N, P);
        streams.addPrivateNoise(eta, 5, SIGMA_ETA);
        double[] mean = new double[P];
        for (int k : survivors) {
            for (int i = 0; i < P; i++) {
                mean[i] += (clipped.getDouble(k, i) + eta.getDouble(k, i)) / survivors.size();
            }
        }
        return mean;
    }

    @Test
    void theChallengeIsRecomputableAndDependsOnEveryCommitment() {
        SpotCheckedGopa gopa = new SpotCheckedGopa(graph, C, SIGMA_ETA, 4.0, 3, VerifiableRound.repeatable(1));
        RoundVerification first = round(gopa, clipped(), new ArrayList<>());
        assertEquals(3, first.checked().length);
        assertTrue(first.allPassed() && first.average() == null, first.verdicts().toString());
        PedersenGroup g = PedersenGroup.standard();
        assertArrayEquals(new int[] {0, 1, 2, 3}, SpotCheck.coordinates(g, 0, java.util.Arrays.asList(null, null), 4, 9));
        assertThrows(IllegalArgumentException.class, () -> SpotCheck.coordinates(g, 0, List.of(), 4, 0));
    }

    @ParameterizedTest
    @EnumSource(Lie.class)
    void aLiarIsExcludedAndTheAverageIsTheSurvivorsExactly(Lie lie) {
        SpotCheckedGopa gopa = new SpotCheckedGopa(graph, C, SIGMA_ETA, 4.0, P, VerifiableRound.repeatable(2));
        gopa.lie(2, lie);
        INDArray clipped = clipped();
        List<SortedSet<Integer>> told = new ArrayList<>();
        RoundVerification r = round(gopa, clipped, told);
        assertEquals(List.of(2), List.copyOf(r.lost()), lie + ": " + r.verdicts());
        assertEquals(List.of(r.lost()), told, "the gate hears of the loss before anything is opened");
        assertEquals(N - 1, r.survivors().size());
        assertArrayEquals(survivorsTruth(clipped, r.survivors()), r.average(), (graph.maxDegree() + 2) * 2 * C * 0x1p-16);
    }

    @Test
    void aPartyThatVanishesAfterTheExchangeIsNamedAndTheSurvivorsAveraged() {
        SpotCheckedGopa gopa = new SpotCheckedGopa(graph, C, SIGMA_ETA, 4.0, 4, VerifiableRound.repeatable(3));
        gopa.dropOut(5, 7);
        INDArray clipped = clipped();
        RoundVerification r = round(gopa, clipped, new ArrayList<>());
        assertEquals(List.of(7), List.copyOf(r.lost()));
        assertTrue(r.verdicts().get(7).failures().contains(VerificationFailure.DROPPED_OUT));
        assertArrayEquals(survivorsTruth(clipped, r.survivors()), r.average(), (graph.maxDegree() + 2) * 2 * C * 0x1p-16);
    }

    @Test
    void aGateThatRefusesStopsTheRoundBeforeAnythingIsOpened() {
        SpotCheckedGopa gopa = new SpotCheckedGopa(graph, C, SIGMA_ETA, 4.0, 4, VerifiableRound.repeatable(4));
        gopa.dropOut(5, 1);
        INDArray clipped = clipped();
        INDArray messages = new GopaAveraging(graph, SIGMA_ETA, 4.0, DataType.DOUBLE).reveal(clipped, streams, 5);
        assertThrows(IllegalStateException.class, () -> gopa.verify(5, clipped, messages, streams, (r, lost) -> {
            throw new IllegalStateException("over budget");
        }));
    }
    @Test
    void aPartySendsItsPublishedFixedPointValueAndNothingThatLeaksItsLowOrderBits() {
        SpotCheckedGopa gopa = new SpotCheckedGopa(graph, C, SIGMA_ETA, 4.0, 3, VerifiableRound.repeatable(4));
        INDArray clipped = clipped();
        INDArray floats = new GopaAveraging(graph, SIGMA_ETA, 4.0, DataType.DOUBLE).reveal(clipped, streams, 5);
        INDArray sent = floats.dup();
        RoundVerification r = gopa.verify(5, clipped, sent, streams, (round, lost) -> { });
        assertTrue(r.allPassed(), r.verdicts().toString());
        for (int k = 0; k < N; k++) {
            for (int i = 0; i < P; i++) {
                // on the fixed-point grid of [-C, C]: a function of the published integer alone
                double units = (sent.getDouble(k, i) + C) / (2 * C) * FixedPoint.ONE;
                assertEquals(Math.rint(units), units, 1e-6, "party " + k + ", coordinate " + i);
                // the float reveal to the rounding of the parts and the margin the encoding is clipped by
                double tolerance = (graph.maxDegree() + 2) * 2 * C * 0x1p-17 + C * Math.sqrt(P) * 0x1p-16;
                assertEquals(floats.getDouble(k, i), sent.getDouble(k, i), tolerance, "party " + k + ", coordinate " + i);
            }
        }
    }

    @Test
    void anUpdateAtTheClipKeepsNormAtMostTheClipOnceEncoded() {
        int p = 4096;
        double c = 3.0;
        for (long seed = 1; seed <= 5; seed++) {
            Nd4j.getRandom().setSeed(seed);
            INDArray row = Nd4j.randn(DataType.DOUBLE, 1, p);
            row.divi(row.norm2Number()).muli(c);   // norm exactly C: clipping alone leaves it there
            INDArray values = SpotCheckedGopa.roundable(row, c);
            double squared = 0;
            for (int i = 0; i < p; i++) {
                double unit = (values.getDouble(0, i) + c) / (2 * c);
                double encoded = -c + 2 * c * FixedPoint.decode(FixedPoint.encode(unit));
                squared += encoded * encoded;
            }
            assertTrue(Math.sqrt(squared) <= c, "encoded norm " + Math.sqrt(squared) + " > C = " + c);
            assertTrue(values.norm2Number().doubleValue() < c * (1 - Math.sqrt(p) * 0x1p-16) * (1 + 1e-12));
        }
    }
}
