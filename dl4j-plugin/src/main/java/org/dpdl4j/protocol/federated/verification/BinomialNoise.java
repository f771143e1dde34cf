package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Private noise whose distribution is proven: {@code eta = scale * (sum_j (b_j XOR c_j) - N/2)}, where party k
 * commits to N secret bits b_j (with {@link BitProof}s) before the public coins c_j are drawn
 * ({@link PublicCoins}). Each {@code b_j XOR c_j} is a fair coin whatever k chose, so eta is
 * {@code scale * (Binomial(N, 1/2) - N/2)}: mean 0, standard deviation {@code scale * sqrt(N) / 2}. The XOR is linear
 * in the commitment ({@code Com(1 - b) = G - Com(b)}), so the verifier derives the commitment to eta itself
 * ({@link #derivedCommitment}) and checks that it is the one the party's sum proof used.
 *
 * <p>This is a binomial (discrete) stand-in for GOPA's Gaussian eta, in the spirit of the paper's noise from committed,
 * jointly generated randomness; the repository's accountants price Gaussian noise, not this one. The coins must be
 * drawn after every bit commitment is published (a randomness beacon, or a commit-then-reveal coin toss among the
 * parties); that ordering is the deployment's, not something a proof here can show.
 *
 * @param trials N, the number of coins per coordinate: even, 2 to 1024
 * @param scale  the noise unit, in {@link FixedPoint} units (&gt;= 1)
 */
public record BinomialNoise(int trials, long scale) {
    public BinomialNoise {
        if (trials < 2 || trials > 1024 || trials % 2 != 0) {
            throw new IllegalArgumentException("binomial noise takes an even number of coins from 2 to 1024, got " + trials);
        }
        if (scale < 1 || scale > (1L << 40)) {
            throw new IllegalArgumentException("the binomial noise unit must be 1 to 2^40 fixed-point units, got " + scale);
        }
    }

    /** The rule with N coins whose standard deviation is closest to {@code sigma} (real units). */
    public static BinomialNoise forStdDev(double sigma, int trials) {
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "binomial noise needs a finite sigma > 0, got %s", sigma));
        }
        return new BinomialNoise(trials, Math.max(1, Math.round(2 * sigma * FixedPoint.ONE / Math.sqrt(trials))));
    }

    /** The standard deviation of eta in real units, {@code scale * sqrt(N) / 2 / 2^16}. */
    public double stdDev() {
        return scale * Math.sqrt(trials) / 2 / FixedPoint.ONE;
    }

    /** Party {@code party}'s secret bits for one coordinate in {@code round}, and their public commitments with proofs. */
    public Draw commitBits(PedersenGroup group, long round, int party, int coordinate, SecureRandom random) {
        ProofContext context = context(round, party, coordinate);
        boolean[] bits = new boolean[trials];
        BigInteger[] blindings = new BigInteger[trials];
        List<ECPoint> commitments = new ArrayList<>(trials);
        List<BitProof> proofs = new ArrayList<>(trials);
        for (int j = 0; j < trials; j++) {
            bits[j] = random.nextBoolean();
            blindings[j] = group.randomScalar(random);
            ECPoint c = group.commit(bits[j] ? BigInteger.ONE : BigInteger.ZERO, blindings[j]);
            commitments.add(c);
            proofs.add(BitProof.prove(group, c, bits[j], blindings[j], bitContext(context, j), random));
        }
        return new Draw(bits, blindings, new NoiseBits(commitments, proofs));
    }

    /** eta in fixed-point units, from the party's bits and the public coins. */
    public long value(boolean[] bits, boolean[] coins) {
        long ones = 0;
        for (int j = 0; j < trials; j++) {
            ones += bits[j] ^ coins[j] ? 1 : 0;
        }
        return scale * (ones - trials / 2);
    }

    /** The blinding of the derived commitment to eta: {@code scale * sum_j (c_j ? -r_j : r_j)}. */
    public BigInteger blinding(PedersenGroup group, BigInteger[] bitBlindings, boolean[] coins) {
        BigInteger sum = BigInteger.ZERO;
        for (int j = 0; j < trials; j++) {
            sum = coins[j] ? sum.subtract(bitBlindings[j]) : sum.add(bitBlindings[j]);
        }
        return group.reduce(sum.multiply(BigInteger.valueOf(scale)));
    }

    /** {@code scale * (sum_j Com(b_j XOR c_j) - (N/2) G)}, the commitment to eta everyone can compute. */
    public ECPoint derivedCommitment(PedersenGroup group, NoiseBits bits, boolean[] coins) {
        ECPoint sum = group.identity();
        for (int j = 0; j < trials; j++) {
            ECPoint b = bits.bitCommitments().get(j);
            sum = sum.add(coins[j] ? group.g().subtract(b) : b);
        }
        sum = sum.subtract(group.g().multiply(BigInteger.valueOf(trials / 2)));
        return sum.multiply(BigInteger.valueOf(scale)).normalize();
    }

    /**
     * Whether {@code bits} are N bits proven by {@code party} for {@code coordinate} in {@code round}, and
     * {@code noiseCommitment} is the commitment to eta they and the coins make.
     */
    public boolean verify(PedersenGroup group, NoiseBits bits, boolean[] coins, ECPoint noiseCommitment, long round, int party,
                          int coordinate) {
        ProofContext context = context(round, party, coordinate);
        if (bits.bitCommitments().size() != trials || coins.length != trials
                || !bits.bitCommitments().stream().allMatch(group::isGroupElement)) {
            return false;
        }
        for (int j = 0; j < trials; j++) {
            if (!bits.bitProofs().get(j).verify(group, bits.bitCommitments().get(j), bitContext(context, j))) {
                return false;
            }
        }
        return derivedCommitment(group, bits, coins).equals(noiseCommitment.normalize());
    }

    private static ProofContext context(long round, int party, int coordinate) {
        return ProofContext.of(round, party, coordinate).about("private-noise");
    }

    private static ProofContext bitContext(ProofContext context, int j) {
        return context.about("noise-bit=" + j);
    }

    /**
     * A party's draw for one coordinate: the secret bits and blindings it keeps, the commitments and proofs it
     * publishes before the coins are drawn.
     *
     * @param bits      b_j
     * @param blindings the blindings of Com(b_j)
     * @param published what the party publishes
     */
    public record Draw(boolean[] bits, BigInteger[] blindings, NoiseBits published) {
    }
}
