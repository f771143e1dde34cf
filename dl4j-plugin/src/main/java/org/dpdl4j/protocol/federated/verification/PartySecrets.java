package org.dpdl4j.protocol.federated.verification;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What party k knows and never publishes in one round of verifiable GOPA: its values {@code theta_k}, its pairwise
 * terms with each neighbour, its private noise {@code eta_k}, all in {@link FixedPoint} units, and the blindings of
 * their commitments.
 *
 * @param values          theta_k per coordinate, each in [0, 1] (that is [0, {@link FixedPoint#ONE}])
 * @param valueBlindings  blindings of the commitments to theta_k
 * @param pairwise        one term per neighbour, the neighbours distinct
 * @param privateNoise    eta_k per coordinate
 * @param noiseBlindings  blindings of the commitments to eta_k
 */
public record PartySecrets(long[] values, BigInteger[] valueBlindings, List<PairwiseTerm> pairwise, long[] privateNoise,
                           BigInteger[] noiseBlindings) {
    public PartySecrets {
        Objects.requireNonNull(values, "values");
        pairwise = List.copyOf(pairwise);
        int p = values.length;
        if (valueBlindings.length != p || privateNoise.length != p || noiseBlindings.length != p
                || pairwise.stream().anyMatch(t -> t.values().length != p)) {
            throw new IllegalArgumentException("every part of a party's secrets needs one entry per coordinate (" + p + ")");
        }
        if (pairwise.stream().mapToInt(PairwiseTerm::peer).distinct().count() != pairwise.size()) {
            throw new IllegalArgumentException("a party has one pairwise term per neighbour, got peers "
                    + pairwise.stream().map(t -> Integer.toString(t.peer())).toList());
        }
    }

    /**
     * Encodes real values and noise and draws fresh blindings for them.
     *
     * @param values       theta_k, each in [0, 1]; clip the parameters first
     * @param pairwise     the terms agreed with each neighbour ({@link PairwiseTerm#agree})
     * @param privateNoise eta_k, within the fixed-point range
     * @throws IllegalArgumentException if a value lies outside [0, 1] or a noise term outside the fixed-point range
     */
    public static PartySecrets encode(double[] values, List<PairwiseTerm> pairwise, double[] privateNoise, PedersenGroup group,
                                      SecureRandom random) {
        int p = values.length;
        long[] encodedValues = new long[p];
        long[] encodedNoise = new long[p];
        BigInteger[] valueBlindings = new BigInteger[p];
        BigInteger[] noiseBlindings = new BigInteger[p];
        for (int i = 0; i < p; i++) {
            if (!(values[i] >= 0 && values[i] <= 1)) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "coordinate %d is %s, outside [0, 1]: verifiable GOPA"
                        + " proves every value in [0, 1], so clip or rescale the parameters before committing", i, values[i]));
            }
            encodedValues[i] = FixedPoint.encode(values[i]);
            valueBlindings[i] = group.randomScalar(random);
        }
        if (privateNoise.length != p) {
            throw new IllegalArgumentException("the private noise has " + privateNoise.length + " coordinates, the values " + p);
        }
        for (int i = 0; i < p; i++) {
            encodedNoise[i] = FixedPoint.encode(privateNoise[i]);
            noiseBlindings[i] = group.randomScalar(random);
        }
        return new PartySecrets(encodedValues, valueBlindings, pairwise, encodedNoise, noiseBlindings);
    }

    /** The number of coordinates p. */
    public int dimension() {
        return values.length;
    }

    /** What the party publishes: {@code thetaHat_k = theta_k + sum_l Delta_kl + eta_k} per coordinate, exactly. */
    public long[] published() {
        long[] out = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            long sum = Math.addExact(values[i], privateNoise[i]);
            for (PairwiseTerm term : pairwise) {
                sum = Math.addExact(sum, term.values()[i]);
            }
            out[i] = sum;
        }
        return out;
    }

    @Override
    public String toString() {
        return "PartySecrets[" + values.length + " coordinates, neighbours " + Arrays.toString(pairwise.stream()
                .mapToInt(PairwiseTerm::peer).toArray()) + "]";   // never the secrets themselves
    }
}
