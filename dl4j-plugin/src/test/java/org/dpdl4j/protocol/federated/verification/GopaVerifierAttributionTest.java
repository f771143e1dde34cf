package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;
import org.dpdl4j.graph.Edge;
import org.dpdl4j.graph.Graph;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Signed edge agreements: a party that publishes a pairwise term other than the one it agreed with its neighbour is
 * named alone, where without agreements the edge is disputed and both ends are named.
 */
class GopaVerifierAttributionTest {
    private static final int DIMENSION = 2;
    private static final long ROUND = 6;
    private static final Graph GRAPH = Graph.of(6, new int[] {0, 1}, new int[] {1, 2}, new int[] {2, 3}, new int[] {3, 4},
            new int[] {4, 5}, new int[] {5, 0}, new int[] {0, 3}, new int[] {1, 4});
    private static final int CHEATER = 3;

    @Test
    void bothEndsBuildTheSameAgreementAndHonestRoundsPassWithAgreements() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 1);
        for (Edge e : GRAPH.edges()) {
            assertEquals(agreement(round, e.i(), e.j()), agreement(round, e.j(), e.i()), "edge " + e);
        }
        List<SigningKey> keys = keys(round);
        VerificationReport report = round.verifier().verify(round.contributions, List.of(), agreements(round, keys, signedAll(round, keys)));
        assertTrue(report.allPassed(), report.toString());
    }

    @Test
    void aPartyThatPublishesOtherThanItSignedIsNamedAlone() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 2);
        List<SigningKey> keys = keys(round);
        List<SignedEdgeAgreement> signed = signedAll(round, keys);   // signed on the honest terms
        int peer = biasFirstTerm(round);
        VerificationReport report = round.verifier().verify(round.contributions, List.of(), agreements(round, keys, signed));
        assertEquals(Set.of(CHEATER), report.failedParties(), report.toString());
        assertEquals(Set.of(VerificationFailure.PAIRWISE_NOT_CANCELLING), report.verdict(CHEATER).failures());
        assertTrue(report.verdict(CHEATER).reasons().get(0).contains("other than the one it signed with party " + peer),
                report.toString());
        assertTrue(report.disputedEdges().isEmpty(), report.toString());

        VerificationReport unsigned = round.verify();
        assertEquals(Set.of(CHEATER, peer), unsigned.failedParties(), "without agreements both ends are named: " + unsigned);
        assertEquals(List.of(Edge.between(CHEATER, peer)), unsigned.disputedEdges());
    }

    @Test
    void anAgreementTheCheaterSignsForItsPeerDoesNotCount() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 3);
        List<SigningKey> keys = keys(round);
        List<SignedEdgeAgreement> signed = signedAll(round, keys);
        int peer = biasFirstTerm(round);
        Edge edge = Edge.between(CHEATER, peer);
        signed.removeIf(s -> s.agreement().edge().equals(edge));
        // the cheater's agreement on what it published, signed with a key it made up for its peer
        EdgeAgreement forged = agreement(round, CHEATER, peer);
        SigningKey fake = SigningKey.generate(VerifiableRound.GROUP, peer, round.random);
        SigningKey mine = keys.get(CHEATER);
        signed.add(CHEATER < peer ? forged.signedBy(VerifiableRound.GROUP, mine, fake) : forged.signedBy(VerifiableRound.GROUP, fake, mine));
        VerificationReport report = round.verifier().verify(round.contributions, List.of(), agreements(round, keys, signed));
        assertEquals(Set.of(CHEATER, peer), report.failedParties(), "no agreement signed by both: the edge stays disputed " + report);
        assertEquals(List.of(edge), report.disputedEdges());

        signed.add(agreement(round, peer, CHEATER, keys));   // the honest agreement, as the peer holds it
        report = round.verifier().verify(round.contributions, List.of(), agreements(round, keys, signed));
        assertEquals(Set.of(CHEATER), report.failedParties(), report.toString());
    }

    @Test
    void anHonestEndRefusesToSignAPairThatDoesNotCancel() {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, 4);
        int peer = round.secrets.get(CHEATER).pairwise().get(0).peer();
        PairwiseTerm peersTerm = round.secrets.get(peer).pairwise().stream().filter(t -> t.peer() == CHEATER).findFirst().orElseThrow();
        assertTrue(agreement(round, CHEATER, peer).acceptableTo(VerifiableRound.GROUP, peer, peersTerm));
        biasFirstTerm(round);
        EdgeAgreement biased = agreement(round, CHEATER, peer);
        assertFalse(biased.acceptableTo(VerifiableRound.GROUP, peer, peersTerm), "the peer's check before signing");
        EdgeAgreement halfHonest = new EdgeAgreement(ROUND, biased.edge(), CHEATER < peer ? biased.lowerCommitments()
                : agreement(round, peer, CHEATER).lowerCommitments(), CHEATER < peer ? agreement(round, peer, CHEATER).higherCommitments()
                : biased.higherCommitments());
        assertFalse(halfHonest.acceptableTo(VerifiableRound.GROUP, peer, peersTerm), "the peer's side right, the cheater's biased");
    }

    /** The cheater adds a quarter to its first pairwise term at coordinate 1 and republishes; returns that term's peer. */
    private static int biasFirstTerm(VerifiableRound round) {
        PartySecrets s = round.secrets.get(CHEATER);
        List<PairwiseTerm> terms = new ArrayList<>(s.pairwise());
        PairwiseTerm t = terms.get(0);
        long[] biased = t.values().clone();
        biased[1] += FixedPoint.ONE / 4;
        terms.set(0, new PairwiseTerm(t.peer(), biased, t.ownBlindings(), t.peerBlindings()));
        round.replaceSecrets(CHEATER, new PartySecrets(s.values(), s.valueBlindings(), terms, s.privateNoise(), s.noiseBlindings()));
        return t.peer();
    }

    private static EdgeAgreement agreement(VerifiableRound round, int party, int peer) {
        PairwiseTerm term = round.secrets.get(party).pairwise().stream().filter(t -> t.peer() == peer).findFirst().orElseThrow();
        return EdgeAgreement.of(VerifiableRound.GROUP, ROUND, party, term);
    }

    private static SignedEdgeAgreement agreement(VerifiableRound round, int party, int peer, List<SigningKey> keys) {
        Edge e = Edge.between(party, peer);
        return agreement(round, party, peer).signedBy(VerifiableRound.GROUP, keys.get(e.i()), keys.get(e.j()));
    }

    private static List<SigningKey> keys(VerifiableRound round) {
        List<SigningKey> keys = new ArrayList<>();
        for (int k = 0; k < GRAPH.vertexCount(); k++) {
            keys.add(SigningKey.generate(VerifiableRound.GROUP, k, round.random));
        }
        return keys;
    }

    private static List<SignedEdgeAgreement> signedAll(VerifiableRound round, List<SigningKey> keys) {
        List<SignedEdgeAgreement> out = new ArrayList<>();
        for (Edge e : GRAPH.edges()) {
            out.add(agreement(round, e.i(), e.j(), keys));
        }
        return out;
    }

    private static EdgeAgreements agreements(VerifiableRound round, List<SigningKey> keys, List<SignedEdgeAgreement> signed) {
        Map<Integer, ECPoint> publicKeys = new HashMap<>();
        for (SigningKey key : keys) {
            publicKeys.put(key.party(), key.publicKey());
        }
        return new EdgeAgreements(VerifiableRound.GROUP, publicKeys, signed);
    }
}
