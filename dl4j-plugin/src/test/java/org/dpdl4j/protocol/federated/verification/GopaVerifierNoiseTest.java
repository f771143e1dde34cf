package org.dpdl4j.protocol.federated.verification;

import org.dpdl4j.graph.Graph;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Binomial private noise from committed bits and public coins: honest parties pass, a party that picks its own eta or
 * swaps its bits is named, and the noise has its binomial law whatever bits a party commits to.
 */
class GopaVerifierNoiseTest {
    private static final int DIMENSION = 2;
    private static final long ROUND = 8;
    private static final Graph GRAPH = Graph.of(6, new int[] {0, 1}, new int[] {1, 2}, new int[] {2, 3}, new int[] {3, 4},
            new int[] {4, 5}, new int[] {5, 0}, new int[] {0, 3}, new int[] {1, 4});
    private static final BinomialNoise RULE = BinomialNoise.forStdDev(0.5, 32);
    /** Stands for a randomness beacon's output, fixed after the bits are published (fixed here so the test repeats). */
    private static final byte[] COIN_SEED = "test beacon output, round 8 ....".getBytes(StandardCharsets.UTF_8);

    @Test
    void honestBinomialNoisePassesAndTheVerifierDerivesItsCommitment() {
        Noisy round = noisy(1);
        VerificationReport report = round.verify();
        assertTrue(report.allPassed(), report.toString());
        for (int k = 0; k < GRAPH.vertexCount(); k++) {
            for (int i = 0; i < DIMENSION; i++) {
                boolean[] coins = PublicCoins.draw(COIN_SEED, ROUND, k, i, RULE.trials());
                assertEquals(round.round.contributions.get(k).coordinates().get(i).noiseCommitment(),
                        RULE.derivedCommitment(VerifiableRound.GROUP, round.bits.get(k).get(i), coins));
            }
        }
    }

    @Test
    void aPartyThatChoosesItsOwnEtaIsNamed() {
        Noisy round = noisy(2);
        PartySecrets s = round.round.secrets.get(4);
        long[] eta = s.privateNoise().clone();
        eta[1] += FixedPoint.ONE;   // a bias hidden in its noise, consistent with its published value
        round.round.replaceSecrets(4, new PartySecrets(s.values(), s.valueBlindings(), s.pairwise(), eta, s.noiseBlindings()));
        VerificationReport report = round.verify();
        assertEquals(Set.of(4), report.failedParties(), report.toString());
        assertEquals(Set.of(VerificationFailure.NOISE_NOT_FROM_COINS), report.verdict(4).failures());
        assertTrue(report.verdict(4).reasons().get(0).startsWith("coordinate 1:"), report.toString());
        assertTrue(noisy(2).verifyWithoutNoiseEvidence(4, eta).allPassed(), "without the evidence the bias goes unseen");
    }

    @Test
    void bitsSwappedAfterTheCoinsOrMissingAreNamed() {
        Noisy round = noisy(3);
        NoiseBits other = RULE.commitBits(VerifiableRound.GROUP, ROUND, 2, 0, round.round.random).published();
        round.bits.get(2).set(0, other);
        round.bits.remove(5);
        VerificationReport report = round.verify();
        assertEquals(Set.of(2, 5), report.failedParties(), report.toString());
        assertEquals(Set.of(VerificationFailure.NOISE_NOT_FROM_COINS), report.verdict(2).failures());
        assertTrue(report.verdict(5).reasons().get(0).contains("no noise bits"), report.toString());
    }

    @Test
    void theNoiseIsBinomialWhateverBitsThePartyCommitsTo() {
        BinomialNoise rule = new BinomialNoise(64, 1);
        boolean[] adversarial = new boolean[64];   // all zero: the party's choice does not matter
        int draws = 4000;
        double sum = 0;
        double squares = 0;
        for (int t = 0; t < draws; t++) {
            long eta = rule.value(adversarial, PublicCoins.draw(COIN_SEED, t, 0, 0, 64));
            sum += eta;
            squares += (double) eta * eta;
        }
        double mean = sum / draws;
        double variance = squares / draws - mean * mean;
        assertEquals(0, mean, 4 * Math.sqrt(16.0 / draws), "mean 0");
        assertEquals(16, variance, 16 * 0.1, "variance N/4");
        assertEquals(0.5, RULE.stdDev(), 0.5 / 1000, "forStdDev picks the unit for sigma");
    }

    /** An honest round whose private noise is binomial, with its published noise bits. */
    private record Noisy(VerifiableRound round, Map<Integer, List<NoiseBits>> bits) {
        VerificationReport verify() {
            return round.verifier().verify(round.contributions, List.of(), EdgeAgreements.none(),
                    new NoiseEvidence(RULE, COIN_SEED, bits));
        }

        VerificationReport verifyWithoutNoiseEvidence(int party, long[] eta) {
            PartySecrets s = round.secrets.get(party);
            round.replaceSecrets(party, new PartySecrets(s.values(), s.valueBlindings(), s.pairwise(), eta, s.noiseBlindings()));
            return round.verify();
        }
    }

    private static Noisy noisy(long seed) {
        VerifiableRound round = VerifiableRound.honest(GRAPH, DIMENSION, ROUND, seed);
        Map<Integer, List<NoiseBits>> published = new HashMap<>();
        for (int k = 0; k < GRAPH.vertexCount(); k++) {
            long[] eta = new long[DIMENSION];
            BigInteger[] blindings = new BigInteger[DIMENSION];
            List<NoiseBits> bits = new ArrayList<>();
            for (int i = 0; i < DIMENSION; i++) {
                BinomialNoise.Draw draw = RULE.commitBits(VerifiableRound.GROUP, ROUND, k, i, round.random);
                boolean[] coins = PublicCoins.draw(COIN_SEED, ROUND, k, i, RULE.trials());   // drawn after the bits
                eta[i] = RULE.value(draw.bits(), coins);
                blindings[i] = RULE.blinding(VerifiableRound.GROUP, draw.blindings(), coins);
                bits.add(draw.published());
            }
            PartySecrets s = round.secrets.get(k);
            round.replaceSecrets(k, new PartySecrets(s.values(), s.valueBlindings(), s.pairwise(), eta, blindings));
            published.put(k, bits);
        }
        return new Noisy(round, published);
    }
}
