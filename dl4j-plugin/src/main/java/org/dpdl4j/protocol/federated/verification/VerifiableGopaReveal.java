package org.dpdl4j.protocol.federated.verification;

import org.dpdl4j.graph.Edge;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.privacy.noise.PairwiseNoise;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * GOPA's reveal step ({@code GopaAveraging.reveal} with {@link DataType#DOUBLE}) made verifiable: the same pairwise and
 * private noise, drawn from the same streams, committed and proven by every party.
 *
 * <p>The range proof is about [0, 1], so values declared to lie in {@code [lower, upper]} are mapped there by
 * {@code x -> (x - lower) / (upper - lower)}, and the noise is divided by the same width: what the parties publish is
 * the unit-scale thetaHat, and {@link #toValueScale} maps a published value back. In value units a published value
 * differs from {@code GopaAveraging}'s by the fixed-point rounding of its parts, at most
 * {@code (degree + 2) * 2^-17 * (upper - lower)}.
 *
 * <p>This holds all parties' secrets at once, as the simulation in {@code GopaAveraging} does; a deployment runs
 * {@link PartyContribution#prove} at each party instead.
 */
public final class VerifiableGopaReveal {
    private final PedersenGroup group;
    private final Graph graph;
    private final PairwiseNoise pairwise;
    private final double lower;
    private final double width;
    private final double sigmaPrivate;
    private final double sigmaPairwise;

    /**
     * @param lower         the least value a party may hold
     * @param upper         the greatest, &gt; lower
     * @param sigmaPrivate  sigma_eta in value units, &gt;= 0
     * @param sigmaPairwise sigma_Delta in value units, &gt;= 0
     */
    public VerifiableGopaReveal(PedersenGroup group, Graph graph, double lower, double upper, double sigmaPrivate,
                                double sigmaPairwise) {
        this.group = Objects.requireNonNull(group, "group");
        this.graph = Objects.requireNonNull(graph, "graph");
        if (!Double.isFinite(lower) || !Double.isFinite(upper) || !(upper > lower)) {
            throw new IllegalArgumentException("the values' interval needs finite ends with lower < upper, got [" + lower + ", "
                    + upper + "]");
        }
        if (!(sigmaPrivate >= 0) || !(sigmaPairwise >= 0) || Double.isInfinite(sigmaPrivate) || Double.isInfinite(sigmaPairwise)) {
            throw new IllegalArgumentException("GOPA noise levels must be finite and >= 0, got sigma_eta = " + sigmaPrivate
                    + ", sigma_Delta = " + sigmaPairwise);
        }
        this.pairwise = new PairwiseNoise(graph, DataType.DOUBLE);
        this.lower = lower;
        this.width = upper - lower;
        this.sigmaPrivate = sigmaPrivate;
        this.sigmaPairwise = sigmaPairwise;
    }

    /**
     * Every party's contribution for {@code round}.
     *
     * @param values  [K, p], row k held by party k, every entry in [lower, upper]
     * @param streams the parties' streams, as for {@code GopaAveraging.reveal}
     * @param random  blindings and nonces
     * @throws IllegalArgumentException if a value lies outside [lower, upper]: clip the values first
     */
    public List<PartyContribution> reveal(INDArray values, NoiseStreams streams, long round, SecureRandom random) {
        List<PartySecrets> secrets = secrets(values, streams, round, random);
        List<PartyContribution> out = new ArrayList<>(secrets.size());
        for (int k = 0; k < secrets.size(); k++) {
            out.add(PartyContribution.prove(group, k, round, secrets.get(k), random));
        }
        return out;
    }

    /**
     * Every party's secrets for {@code round} at unit scale: its values mapped onto [0, 1], its pairwise terms and its
     * private noise (the draws of {@code GopaAveraging}, divided by the width), with fresh blindings.
     *
     * @param values  [K, p], row k held by party k, every entry in [lower, upper]
     * @param streams the parties' streams, as for {@code GopaAveraging.reveal}
     * @param random  blindings
     * @throws IllegalArgumentException if a value lies outside [lower, upper]: clip the values first
     */
    public List<PartySecrets> secrets(INDArray values, NoiseStreams streams, long round, SecureRandom random) {
        int n = graph.vertexCount();
        if (values.rank() != 2 || values.size(0) != n) {
            throw new IllegalArgumentException("verifiable GOPA on " + n + " parties needs a [" + n + ", p] matrix of values, got "
                    + java.util.Arrays.toString(values.shape()));
        }
        int p = (int) values.size(1);
        double[][] unit = values.castTo(DataType.DOUBLE).toDoubleMatrix();
        for (int k = 0; k < n; k++) {
            for (int i = 0; i < p; i++) {
                double x = unit[k][i];
                if (!(x >= lower && x <= lower + width)) {
                    throw new IllegalArgumentException(String.format(Locale.ROOT, "party %d's coordinate %d is %s, outside the declared"
                            + " [%s, %s]: clip the values to the interval before revealing them", k, i, x, lower, lower + width));
                }
                unit[k][i] = Math.min(1.0, (x - lower) / width);
            }
        }
        double[][] edgeNoise = pairwise.edgeNoise(streams, round, p, sigmaPairwise).toDoubleMatrix();
        INDArray eta = Nd4j.zeros(DataType.DOUBLE, n, p);
        if (sigmaPrivate > 0) {
            streams.addPrivateNoise(eta, round, sigmaPrivate);
        }
        double[][] privateNoise = eta.toDoubleMatrix();
        List<List<PairwiseTerm>> terms = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            terms.add(new ArrayList<>());
        }
        for (int e = 0; e < graph.edgeCount(); e++) {
            Edge edge = graph.edge(e);
            // the lower end adds +u_e and the higher -u_e, as the incidence matrix of PairwiseNoise does
            PairwiseTerm[] ends = PairwiseTerm.agree(edge.i(), edge.j(), scaled(edgeNoise[e]), group, random);
            terms.get(edge.i()).add(ends[0]);
            terms.get(edge.j()).add(ends[1]);
        }
        List<PartySecrets> out = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            out.add(PartySecrets.encode(unit[k], terms.get(k), scaled(privateNoise[k]), group, random));
        }
        return out;
    }

    /** The verifier of {@code round} for p coordinates per party. */
    public GopaVerifier verifier(long round, int p) {
        return new GopaVerifier(group, graph, round, p);
    }

    /** The width {@code upper - lower} of the values' interval: one unit-scale unit in value units. */
    public double width() {
        return width;
    }

    /** A published unit-scale value in value units: {@code lower + width * thetaHat}. */
    public double toValueScale(double published) {
        return lower + width * published;
    }

    /** The estimate of the average in value units: the mean of the published vectors, mapped back ([p]). */
    public double[] estimate(List<PartyContribution> contributions) {
        int p = contributions.get(0).coordinates().size();
        double[] mean = new double[p];
        for (PartyContribution c : contributions) {
            double[] published = c.publishedValues();
            for (int i = 0; i < p; i++) {
                mean[i] += published[i] / contributions.size();
            }
        }
        for (int i = 0; i < p; i++) {
            mean[i] = toValueScale(mean[i]);
        }
        return mean;
    }

    private double[] scaled(double[] noise) {
        double[] out = new double[noise.length];
        for (int i = 0; i < noise.length; i++) {
            out[i] = noise[i] / width;
        }
        return out;
    }
}
