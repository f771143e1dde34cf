package org.dpdl4j.protocol.federated.verification;

import org.dpdl4j.graph.Edge;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Verifiable GOPA on six parties with three coordinates each: honest rounds pass, and a party that lies about each
 * property in turn, forges a proof or replays one is named, with the property it broke.
 */
class GopaVerifierTest {
    private static final int PARTIES = 6;
    private static final int DIMENSION = 3;
    private static final long ROUND = 4;
    /** A ring with two chords: degrees 2 and 3. */
    private static final Graph GRAPH = Graph.of(PARTIES, new int[] {0, 1}, new int[] {1, 2}, new int[] {2, 3}, new int[] {3, 4},
            new int[] {4, 5}, new int[] {5, 0}, new int[] {0, 3}, new int[] {1, 4});

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void honestPartiesAlwaysPassAndThePairwiseTermsCancelInTheSum(long seed) {
        Graph graph = seed % 2 == 0 ? GRAPH : Topologies.randomKOut(PARTIES, 2, seed);
        VerifiableRound round = VerifiableRound.honest(graph, DIMENSION, ROUND, seed);
        VerificationReport report = round.verify();
        assertTrue(report.allPassed(), report.toString());
        assertTrue(report.disputedEdges().isEmpty());
        for (int i = 0; i < DIMENSION; i++) {
            long published = 0;
            long parts = 0;
            for (int k = 0; k < PARTIES; k++) {
                published += round.contributions.get(k).coordinates().get(i).published();
                parts += round.secrets.get(k).values()[i] + round.secrets.get(k).privateNoise()[i];
            }
            assertEquals(parts, published, "coordinate " + i + ": the published values sum to sum theta + sum eta exactly");
        }
    }

    @Test
    void aValueAboveOneIsCaughtAndTheHonestApiRefusesIt() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 5);
        PartySecrets cheat = withValue(round.secrets.get(2), 1, FixedPoint.ONE * 3 / 2);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> PartyContribution.prove(VerifiableRound.GROUP, 2, ROUND, cheat, round.random));
        assertTrue(refused.getMessage().contains("outside [0, 1]") && refused.getMessage().contains("clip"), refused.getMessage());
        round.replaceSecrets(2, cheat);
        assertOnlyFailure(round.verify(), 2, VerificationFailure.VALUE_OUT_OF_RANGE);
    }

    @Test
    void aNegativeValueIsCaught() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 6);
        round.replaceSecrets(3, withValue(round.secrets.get(3), 0, -1));
        assertOnlyFailure(round.verify(), 3, VerificationFailure.VALUE_OUT_OF_RANGE);
    }

    @Test
    void theEncoderRefusesValuesOutsideZeroToOne() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PartySecrets.encode(new double[] {0.5, 1.25},
                List.of(), new double[] {0, 0}, VerifiableRound.GROUP, VerifiableRound.repeatable(1)));
        assertTrue(e.getMessage().contains("coordinate 1") && e.getMessage().contains("[0, 1]"), e.getMessage());
    }

    @Test
    void aPairwiseTermThatDoesNotCancelIsCaughtOnItsEdgeWhichIsDisputed() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 7);
        PartySecrets honest = round.secrets.get(3);
        List<PairwiseTerm> terms = new ArrayList<>(honest.pairwise());
        PairwiseTerm term = terms.get(0);
        long[] biased = term.values().clone();
        biased[1] += FixedPoint.ONE / 4;   // a bias the cancellation would otherwise hide in the sum
        terms.set(0, new PairwiseTerm(term.peer(), biased, term.ownBlindings(), term.peerBlindings()));
        round.replaceSecrets(3, new PartySecrets(honest.values(), honest.valueBlindings(), terms, honest.privateNoise(),
                honest.noiseBlindings()));
        VerificationReport report = round.verify();
        int peer = term.peer();
        assertEquals(Set.of(3, peer), report.failedParties(), report.toString());
        assertEquals(Set.of(VerificationFailure.PAIRWISE_NOT_CANCELLING), report.verdict(3).failures(), report.toString());
        assertEquals(Set.of(VerificationFailure.PAIRWISE_NOT_CANCELLING), report.verdict(peer).failures(), report.toString());
        assertEquals(List.of(Edge.between(3, peer)), report.disputedEdges());
        assertTrue(report.verdict(3).reasons().get(0).contains("coordinate 1, edge " + Edge.between(3, peer)),
                report.verdict(3).reasons().toString());
    }

    @Test
    void aPublishedValueOtherThanTheCommittedSumIsCaught() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 8);
        CoordinateContribution c = round.contributions.get(1).coordinates().get(2);
        round.replaceCoordinate(1, 2, new CoordinateContribution(c.published() + FixedPoint.ONE / 4, c.valueCommitment(),
                c.pairwiseCommitments(), c.noiseCommitment(), c.range(), c.cancellation(), c.sum()));
        VerificationReport report = round.verify();
        assertOnlyFailure(report, 1, VerificationFailure.PUBLISHED_VALUE_MISMATCH);
        assertTrue(report.verdict(1).reasons().get(0).startsWith("coordinate 2:"), report.verdict(1).reasons().toString());
    }

    @Test
    void anExtremePublishedValueIsCaughtWithoutOverflowingTheAggregate() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 17);
        for (int k : new int[] {1, 2}) {
            CoordinateContribution c = round.contributions.get(k).coordinates().get(0);
            round.replaceCoordinate(k, 0, new CoordinateContribution(Long.MAX_VALUE, c.valueCommitment(), c.pairwiseCommitments(),
                    c.noiseCommitment(), c.range(), c.cancellation(), c.sum()));
        }
        VerificationReport report = round.verify();
        assertEquals(Set.of(1, 2), report.failedParties(), report.toString());
        assertEquals(Set.of(VerificationFailure.PUBLISHED_VALUE_MISMATCH), report.verdict(1).failures());
        assertTrue(report.aggregate()[0].bitLength() > 63, "the aggregate is exact beyond a long");
    }

    @Test
    void aTamperedBitProofIsCaught() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 9);
        CoordinateContribution c = round.contributions.get(4).coordinates().get(0);
        BitDecompositionProof below = c.range().fromBelow();
        List<BitProof> bits = new ArrayList<>(below.bitProofs());
        BitProof b = bits.get(5);
        bits.set(5, new BitProof(b.challengeZero(), b.challengeOne(), b.responseZero().add(BigInteger.ONE), b.responseOne()));
        RangeProof forged = new RangeProof(new BitDecompositionProof(below.bitCommitments(), bits), c.range().fromAbove());
        round.replaceCoordinate(4, 0, new CoordinateContribution(c.published(), c.valueCommitment(), c.pairwiseCommitments(),
                c.noiseCommitment(), forged, c.cancellation(), c.sum()));
        assertOnlyFailure(round.verify(), 4, VerificationFailure.VALUE_OUT_OF_RANGE);
    }

    @Test
    void aTamperedCancellationProofNamesOnlyItsProverAndDisputesNoEdge() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 10);
        CoordinateContribution c = round.contributions.get(4).coordinates().get(1);
        SortedMap<Integer, BlindingProof> proofs = new TreeMap<>(c.cancellation());
        int peer = proofs.firstKey();
        BlindingProof p = proofs.get(peer);
        proofs.put(peer, new BlindingProof(p.challenge().add(BigInteger.ONE), p.response()));
        round.replaceCoordinate(4, 1, new CoordinateContribution(c.published(), c.valueCommitment(), c.pairwiseCommitments(),
                c.noiseCommitment(), c.range(), proofs, c.sum()));
        VerificationReport report = round.verify();
        assertOnlyFailure(report, 4, VerificationFailure.PAIRWISE_NOT_CANCELLING);
        assertTrue(report.disputedEdges().isEmpty(), report.toString());
    }

    @Test
    void aTamperedSumProofIsCaught() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 11);
        CoordinateContribution c = round.contributions.get(0).coordinates().get(2);
        BlindingProof forged = new BlindingProof(c.sum().challenge(), c.sum().response().subtract(BigInteger.ONE));
        round.replaceCoordinate(0, 2, new CoordinateContribution(c.published(), c.valueCommitment(), c.pairwiseCommitments(),
                c.noiseCommitment(), c.range(), c.cancellation(), forged));
        assertOnlyFailure(round.verify(), 0, VerificationFailure.PUBLISHED_VALUE_MISMATCH);
    }

    @Test
    void aRangeProofReplayedFromAnotherPartyIsCaughtByItsContext() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 12);
        // party 5 colludes with party 0: it commits to 0's value with 0's blinding, so their commitments are equal
        PartySecrets zero = round.secrets.get(0);
        PartySecrets five = round.secrets.get(5);
        long[] values = five.values().clone();
        BigInteger[] blindings = five.valueBlindings().clone();
        values[0] = zero.values()[0];
        blindings[0] = zero.valueBlindings()[0];
        round.replaceSecrets(5, new PartySecrets(values, blindings, five.pairwise(), five.privateNoise(), five.noiseBlindings()));
        CoordinateContribution mine = round.contributions.get(5).coordinates().get(0);
        RangeProof copied = round.contributions.get(0).coordinates().get(0).range();
        assertEquals(round.contributions.get(0).coordinates().get(0).valueCommitment(), mine.valueCommitment());
        assertTrue(copied.verify(VerifiableRound.GROUP, mine.valueCommitment(), FixedPoint.ONE, ProofContext.of(ROUND, 0, 0)),
                "the copied proof is valid where it was made");
        round.replaceCoordinate(5, 0, new CoordinateContribution(mine.published(), mine.valueCommitment(), mine.pairwiseCommitments(),
                mine.noiseCommitment(), copied, mine.cancellation(), mine.sum()));
        assertOnlyFailure(round.verify(), 5, VerificationFailure.VALUE_OUT_OF_RANGE);
    }

    @Test
    void proofsReplayedFromAnotherRoundAreCaughtByTheirContext() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 13);
        // the same secrets proved for the previous round: same commitments, proofs bound to round ROUND - 1
        PartyContribution previous = PartyContribution.prove(VerifiableRound.GROUP, 2, ROUND - 1, round.secrets.get(2), round.random);
        CoordinateContribution now = round.contributions.get(2).coordinates().get(1);
        CoordinateContribution old = previous.coordinates().get(1);
        assertEquals(old.valueCommitment(), now.valueCommitment());
        round.replaceCoordinate(2, 1, new CoordinateContribution(now.published(), now.valueCommitment(), now.pairwiseCommitments(),
                now.noiseCommitment(), old.range(), now.cancellation(), old.sum()));
        VerificationReport report = round.verify();
        assertEquals(Set.of(2), report.failedParties(), report.toString());
        assertEquals(Set.of(VerificationFailure.VALUE_OUT_OF_RANGE, VerificationFailure.PUBLISHED_VALUE_MISMATCH),
                report.verdict(2).failures());
        // a whole contribution labelled with its old round is refused as such
        round.contributions.set(2, previous);
        assertOnlyFailure(round.verify(), 2, VerificationFailure.MALFORMED);
    }

    @Test
    void aMissingContributionIsADropOutAndAMisshapenOneIsMalformed() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 14);
        round.contributions.set(5, null);
        List<PairwiseOpening> openings = new ArrayList<>();
        for (int l : GRAPH.neighbours(5)) {
            openings.add(PairwiseOpening.of(l, round.secrets.get(l), 5));
        }
        VerificationReport report = round.verifier().verify(round.contributions, openings);
        assertEquals(Set.of(5), report.failedParties(), report.toString());
        assertEquals(Set.of(VerificationFailure.DROPPED_OUT), report.verdict(5).failures(), report.toString());
        assertTrue(report.verdict(5).reasons().get(0).contains("no contribution"));

        round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 15);
        CoordinateContribution c = round.contributions.get(1).coordinates().get(0);
        SortedMap<Integer, org.bouncycastle.math.ec.ECPoint> fewer = new TreeMap<>(c.pairwiseCommitments());
        fewer.remove(fewer.firstKey());
        round.replaceCoordinate(1, 0, new CoordinateContribution(c.published(), c.valueCommitment(), fewer, c.noiseCommitment(),
                c.range(), c.cancellation(), c.sum()));
        report = round.verify();
        assertOnlyFailure(report, 1, VerificationFailure.MALFORMED);
        assertTrue(report.verdict(1).reasons().get(0).contains("neighbours are"), report.verdict(1).reasons().toString());
    }

    @Test
    void theVerifierNeedsOneContributionSlotPerParty() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, 1, ROUND, 16);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> round.verifier().verify(round.contributions.subList(0, 5)));
        assertTrue(e.getMessage().contains("null for a party that published nothing"), e.getMessage());
        assertFalse(round.verify().toString().contains("FAILED"));
    }

    private static PartySecrets withValue(PartySecrets s, int coordinate, long value) {
        long[] values = s.values().clone();
        values[coordinate] = value;
        return new PartySecrets(values, s.valueBlindings(), s.pairwise(), s.privateNoise(), s.noiseBlindings());
    }

    private static void assertOnlyFailure(VerificationReport report, int party, VerificationFailure failure) {
        assertEquals(Set.of(party), report.failedParties(), report.toString());
        assertEquals(Set.of(failure), report.verdict(party).failures(), report.toString());
        assertTrue(report.disputedEdges().isEmpty(), report.toString());
    }
}
