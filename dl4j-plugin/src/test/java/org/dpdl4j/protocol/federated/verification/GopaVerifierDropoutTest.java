package org.dpdl4j.protocol.federated.verification;

import org.dpdl4j.graph.Graph;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drop-outs: when a party publishes nothing, its neighbours open their terms with it, the verifier checks the
 * openings against their commitments and removes the terms, and the aggregate is again exactly the sum of the theta
 * and eta of the parties that published; a neighbour that does not open, or opens something else, is named.
 */
class GopaVerifierDropoutTest {
    private static final int DIMENSION = 2;
    private static final long ROUND = 3;
    /** Six parties: a ring with the chords {0, 3} and {1, 4}. */
    private static final Graph GRAPH = Graph.of(6, new int[] {0, 1}, new int[] {1, 2}, new int[] {2, 3}, new int[] {3, 4},
            new int[] {4, 5}, new int[] {5, 0}, new int[] {0, 3}, new int[] {1, 4});

    @Test
    void withEveryPartyPublishingTheAggregateIsTheSumOfThetaAndEta() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 1);
        VerificationReport report = round.verify();
        assertTrue(report.allPassed(), report.toString());
        assertArrayEquals(sumOfThetaAndEta(round, Set.of()), report.aggregate());
    }

    @Test
    void theOpenedTermsOfADropOutsNeighboursRestoreTheAggregate() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 2);
        int dropped = 3;
        round.contributions.set(dropped, null);
        VerificationReport report = round.verifier().verify(round.contributions, openings(round, dropped));
        assertEquals(Set.of(dropped), report.failedParties(), report.toString());
        assertEquals(Set.of(dropped), report.droppedOut());
        assertArrayEquals(sumOfThetaAndEta(round, Set.of(dropped)), report.aggregate());
        double[] average = report.average();
        long[] expected = longSumOfThetaAndEta(round, Set.of(dropped));
        for (int i = 0; i < DIMENSION; i++) {
            assertEquals(FixedPoint.decode(expected[i]) / 5, average[i], 1e-12);
        }
    }

    @Test
    void aNeighbourThatDoesNotOpenItsTermIsNamed() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 3);
        int dropped = 0;
        round.contributions.set(dropped, null);
        List<PairwiseOpening> openings = openings(round, dropped);
        PairwiseOpening withheld = openings.remove(0);
        VerificationReport report = round.verifier().verify(round.contributions, openings);
        assertEquals(Set.of(dropped, withheld.party()), report.failedParties(), report.toString());
        assertEquals(Set.of(VerificationFailure.DROPOUT_TERM_NOT_OPENED), report.verdict(withheld.party()).failures());
        assertTrue(report.verdict(withheld.party()).reasons().get(0).startsWith("no opening"), report.toString());
    }

    @Test
    void aNeighbourThatOpensAnotherValueIsNamed() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 4);
        int dropped = 4;
        round.contributions.set(dropped, null);
        List<PairwiseOpening> openings = openings(round, dropped);
        PairwiseOpening honest = openings.get(1);
        long[] shifted = honest.values().clone();
        shifted[1] += FixedPoint.ONE;   // claims a term one larger, to shift the aggregate
        openings.set(1, new PairwiseOpening(honest.party(), honest.peer(), shifted, honest.blindings()));
        VerificationReport report = round.verifier().verify(round.contributions, openings);
        assertEquals(Set.of(dropped, honest.party()), report.failedParties(), report.toString());
        assertEquals(Set.of(VerificationFailure.DROPOUT_TERM_NOT_OPENED), report.verdict(honest.party()).failures());
    }

    @Test
    void onlyANeighbourHasATermToOpen() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 5);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PairwiseOpening.of(2, round.secrets.get(2), 5));
        assertTrue(e.getMessage().contains("not a neighbour"), e.getMessage());
    }

    private static List<PairwiseOpening> openings(VerifiableRound round, int dropped) {
        List<PairwiseOpening> out = new ArrayList<>();
        for (int l : round.graph.neighbours(dropped)) {
            out.add(PairwiseOpening.of(l, round.secrets.get(l), dropped));
        }
        return out;
    }

    private static BigInteger[] sumOfThetaAndEta(VerifiableRound round, Set<Integer> absent) {
        return java.util.Arrays.stream(longSumOfThetaAndEta(round, absent)).mapToObj(BigInteger::valueOf).toArray(BigInteger[]::new);
    }

    private static long[] longSumOfThetaAndEta(VerifiableRound round, Set<Integer> absent) {
        long[] sum = new long[round.dimension];
        for (int k = 0; k < round.graph.vertexCount(); k++) {
            if (!absent.contains(k)) {
                for (int i = 0; i < round.dimension; i++) {
                    sum[i] += round.secrets.get(k).values()[i] + round.secrets.get(k).privateNoise()[i];
                }
            }
        }
        return sum;
    }
}
