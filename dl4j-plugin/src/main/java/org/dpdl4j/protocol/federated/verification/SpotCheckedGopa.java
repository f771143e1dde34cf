package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;
import org.dpdl4j.graph.Edge;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * GOPA's rounds made verifiable by spot checks, beside the training's own reveal. In each round every party
 * <ol>
 *   <li>scales its clipped update to norm {@code C (1 - sqrt(p) 2^-16)} (so that its fixed-point encoding keeps norm at
 *       most C), maps it from [-C, C] onto [0, 1] (clipping to norm C bounds every coordinate by C) and commits
 *       to every coordinate of it, of its pairwise terms and of its private noise, the draws of {@code GopaAveraging}
 *       ({@link VerifiableGopaReveal#secrets}); the two ends of every edge sign what they will publish for it
 *       ({@link EdgeAgreement});</li>
 *   <li>once all commitments are published, proves range, cancellation and sum on the k coordinates drawn from them
 *       ({@link SpotCheck}), or on all p;</li>
 * </ol>
 * then {@link SpotCheckVerifier} names the parties that fail. What a party sends the server is its published value
 * (in value units) and nothing else: the floating-point reveal beside it would leak the update's low-order bits (see
 * {@link #sendPublished}). When some party is lost (failed or dropped out after the pairwise exchange), the
 * {@link LossGate} is told before the survivors open their terms with the lost parties, and the round's average is the
 * survivors' exact aggregate less the opened terms.
 *
 * <p>This simulates every party in one process, as {@code GopaAveraging} does; the tests make chosen parties lie or
 * drop out through package-private hooks.
 */
public final class SpotCheckedGopa {
    /** Told which parties a round lost, before the survivors open their terms with them (which reveals those terms). */
    @FunctionalInterface
    public interface LossGate {
        void beforeOpening(long round, SortedSet<Integer> lost);
    }

    private final PedersenGroup group = PedersenGroup.standard();
    private final Graph graph;
    private final VerifiableGopaReveal reveal;
    private final double clip;
    private final int coordinatesPerRound;
    private final SecureRandom random;
    private final List<SigningKey> keys = new ArrayList<>();
    private final Map<Integer, Lie> lies = new HashMap<>();
    private final Map<Long, Set<Integer>> dropOuts = new HashMap<>();

    /**
     * @param graph               GOPA's pairwise-secret graph
     * @param clip                C: the updates are clipped to L2 norm C, so every coordinate lies in [-C, C]
     * @param sigmaPrivate        sigma_eta in value units
     * @param sigmaPairwise       sigma_Delta in value units
     * @param coordinatesPerRound k &gt;= 1 coordinates proven per party and round; at least p proves them all
     * @param random              blindings, nonces and signing keys: a platform {@link SecureRandom}
     */
    public SpotCheckedGopa(Graph graph, double clip, double sigmaPrivate, double sigmaPairwise, int coordinatesPerRound,
                           SecureRandom random) {
        this.graph = Objects.requireNonNull(graph, "graph");
        if (!(clip > 0) || Double.isInfinite(clip)) {
            throw new IllegalArgumentException("verifiable GOPA needs a finite clip C > 0 (its range proof is about [-C, C]), got " + clip);
        }
        if (coordinatesPerRound < 1) {
            throw new IllegalArgumentException("verifiable GOPA proves at least one coordinate per round, got " + coordinatesPerRound);
        }
        this.reveal = new VerifiableGopaReveal(group, graph, -clip, clip, sigmaPrivate, sigmaPairwise);
        this.clip = clip;
        this.coordinatesPerRound = coordinatesPerRound;
        this.random = Objects.requireNonNull(random, "random");
        for (int k = 0; k < graph.vertexCount(); k++) {
            keys.add(SigningKey.generate(group, k, random));
        }
    }

    /** Makes {@code party} lie in every later round. Tests only. */
    void lie(int party, Lie how) {
        lies.put(party, Objects.requireNonNull(how, "how"));
    }

    /** Makes {@code parties} vanish in {@code round} after the pairwise exchange: they publish nothing. Tests only. */
    void dropOut(long round, int... parties) {
        Set<Integer> set = dropOuts.computeIfAbsent(round, r -> new TreeSet<>());
        for (int k : parties) {
            set.add(k);
        }
    }

    /** k, the coordinates proven per party and round (at least p: all). */
    public int coordinatesPerRound() {
        return coordinatesPerRound;
    }

    /**
     * Verifies one round.
     *
     * @param clipped  [K, p]: the parties' updates, clipped to norm C
     * @param messages [K, p]: {@code GopaAveraging.reveal} of {@code clipped}; replaced in place by what the parties send:
     *                 a party's published value (a lying party's, what it publishes), NaN for a party that dropped out
     * @param streams  the parties' streams the messages were drawn from
     * @param gate     told of lost parties before their neighbours open their terms; may refuse by throwing
     */
    public RoundVerification verify(long round, INDArray clipped, INDArray messages, NoiseStreams streams, LossGate gate) {
        int n = graph.vertexCount();
        int p = (int) clipped.size(1);
        double[] commitSeconds = new double[n];
        double[] proveSeconds = new double[n];
        List<PartySecrets> secrets = new ArrayList<>(reveal.secrets(roundable(clipped, clip), streams, round, random));
        applyValueLies(secrets, p);
        List<PartyCommitments> published = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            long start = System.nanoTime();
            published.add(PartyCommitments.commit(group, k, round, secrets.get(k)));
            commitSeconds[k] += seconds(start);
        }
        EdgeAgreements agreements = signAgreements(round, secrets, published, commitSeconds);
        applyPublishedLies(round, secrets, published, p);
        Set<Integer> dropped = dropOuts.getOrDefault(round, Set.of());
        for (int k : dropped) {
            published.set(k, null);
        }
        sendPublished(published, messages);
        int[] chosen = SpotCheck.coordinates(group, round, published, p, coordinatesPerRound);
        List<SpotCheckProof> proofs = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            long start = System.nanoTime();
            proofs.add(published.get(k) == null ? null : proofFor(k, round, published.get(k), secrets.get(k), chosen));
            proveSeconds[k] += seconds(start);
        }
        SpotCheckVerifier verifier = new SpotCheckVerifier(group, graph, round, p);
        SpotCheckVerifier.Checked checked = verifier.verify(published, proofs, chosen, agreements);
        Map<Integer, List<Finding>> extra = new HashMap<>();
        SortedSet<Integer> lost = new TreeSet<>(checked.report().failedParties());
        double[] average = null;
        SortedSet<Integer> survivors = survivorsOf(published, lost);
        if (!lost.isEmpty()) {
            gate.beforeOpening(round, java.util.Collections.unmodifiableSortedSet(new TreeSet<>(lost)));
            SpotCheckVerifier.Survivors left;
            while (true) {
                left = verifier.withoutLostParties(published, lost, openings(published, secrets, lost));
                if (left.unopened().isEmpty()) {
                    break;
                }
                left.unopened().forEach((s, why) -> extra.computeIfAbsent(s, x -> new ArrayList<>())
                        .add(new Finding(VerificationFailure.DROPOUT_TERM_NOT_OPENED, why)));
                lost.addAll(left.unopened().keySet());
            }
            survivors = left.parties();
            average = survivors.isEmpty() ? null : valueScaleMean(left.aggregate(), survivors.size());
        }
        return new RoundVerification(round, chosen, merge(checked.report(), extra), lost, survivors, average, commitSeconds,
                proveSeconds, checked.secondsPerParty());
    }

    /** The two ends of every edge agree on what they publish for it and sign it; an honest end signs only a cancelling pair. */
    private EdgeAgreements signAgreements(long round, List<PartySecrets> secrets, List<PartyCommitments> published, double[] seconds) {
        List<SignedEdgeAgreement> signed = new ArrayList<>();
        for (Edge edge : graph.edges()) {
            long start = System.nanoTime();
            EdgeAgreement agreement = new EdgeAgreement(round, edge, published.get(edge.i()).pairwise().get(edge.j()),
                    published.get(edge.j()).pairwise().get(edge.i()));
            boolean lowerAccepts = agreement.acceptableTo(group, edge.i(), termOf(secrets.get(edge.i()), edge.j()));
            boolean higherAccepts = agreement.acceptableTo(group, edge.j(), termOf(secrets.get(edge.j()), edge.i()));
            if (lowerAccepts && higherAccepts) {
                signed.add(agreement.signedBy(group, keys.get(edge.i()), keys.get(edge.j())));
            }
            double spent = seconds(start) / 2;
            seconds[edge.i()] += spent;
            seconds[edge.j()] += spent;
        }
        Map<Integer, ECPoint> publicKeys = new HashMap<>();
        keys.forEach(k -> publicKeys.put(k.party(), k.publicKey()));
        return new EdgeAgreements(group, publicKeys, signed);
    }

    /** Lies in what a party holds, before it commits: the out-of-range value. */
    private void applyValueLies(List<PartySecrets> secrets, int p) {
        lies.forEach((k, lie) -> {
            if (lie == Lie.RANGE) {
                PartySecrets s = secrets.get(k);
                long[] values = new long[p];
                java.util.Arrays.fill(values, FixedPoint.ONE + FixedPoint.ONE / 2);
                secrets.set(k, new PartySecrets(values, s.valueBlindings(), s.pairwise(), s.privateNoise(), s.noiseBlindings()));
            }
        });
    }

    /** Lies in what a party publishes (and so sends), after the edges' agreements are signed. */
    private void applyPublishedLies(long round, List<PartySecrets> secrets, List<PartyCommitments> published, int p) {
        long bias = FixedPoint.ONE / 2;   // C in value units
        lies.forEach((k, lie) -> {
            PartySecrets s = secrets.get(k);
            PartyCommitments c = published.get(k);
            if (lie == Lie.CANCELLATION && !s.pairwise().isEmpty()) {
                PairwiseTerm honest = s.pairwise().get(0);
                long[] shifted = honest.values().clone();
                for (int i = 0; i < p; i++) {
                    shifted[i] += bias;
                }
                List<PairwiseTerm> terms = new ArrayList<>(s.pairwise());
                terms.set(0, new PairwiseTerm(honest.peer(), shifted, honest.ownBlindings(), honest.peerBlindings()));
                PartySecrets lying = new PartySecrets(s.values(), s.valueBlindings(), terms, s.privateNoise(), s.noiseBlindings());
                secrets.set(k, lying);
                published.set(k, PartyCommitments.commit(group, k, round, lying));
            } else if (lie == Lie.PUBLISHED_VALUE) {
                long[] values = c.published();
                for (int i = 0; i < p; i++) {
                    values[i] += bias;
                }
                published.set(k, new PartyCommitments(k, round, values, c.values(), c.noise(), c.pairwise()));
            }
        });
    }

    private SpotCheckProof proofFor(int k, long round, PartyCommitments published, PartySecrets secrets, int[] chosen) {
        Lie lie = lies.get(k);
        if (lie == Lie.FORGED_PROOF) {
            PartyCommitments otherRound = new PartyCommitments(k, round + 1, published.published(), published.values(),
                    published.noise(), published.pairwise());
            return new SpotCheckProof(k, round, SpotCheckProof.proveAsIs(group, otherRound, secrets, chosen, random).coordinates());
        }
        return lie == null ? SpotCheckProof.prove(group, published, secrets, chosen, random)
                : SpotCheckProof.proveAsIs(group, published, secrets, chosen, random);
    }

    /**
     * The values the parties commit to: each update scaled to norm at most {@code C (1 - sqrt(p) 2^-16)}, so that its
     * fixed-point encoding, which moves each coordinate by at most half a unit ({@code C 2^-16} in value units), keeps
     * norm at most C: what a party publishes then has the sensitivity 2C its rounds are priced with.
     */
    static INDArray roundable(INDArray clipped, double clip) {
        int p = (int) clipped.size(1);
        double bound = clip * (1 - Math.sqrt(p) * 0x1p-16);
        if (!(bound > 0)) {
            throw new IllegalArgumentException("verifiable GOPA encodes each coordinate to 2^-16 of its range, which for p = " + p
                    + " coordinates can move an update by more than C; verify a model of fewer than 2^32 parameters");
        }
        INDArray values = clipped.castTo(DataType.DOUBLE).dup();
        org.dpdl4j.optim.RowClipping.clip(values, bound);
        return values;
    }

    /**
     * What every party that published sends the server: its published value in value units, nothing else. A message
     * computed beside it (the unverified reveal, in floating point) would hand the server the difference of the two, the
     * sum of the parts' rounding errors, whose value part is a function of the update's low-order bits: with the
     * rounding of the noise parts alone to hide it, the server could tell a party's update from any other.
     */
    private void sendPublished(List<PartyCommitments> published, INDArray messages) {
        for (int k = 0; k < published.size(); k++) {
            PartyCommitments c = published.get(k);
            if (c == null) {
                messages.getRow(k).assign(Double.NaN);   // a party that dropped out sends nothing
                continue;
            }
            for (int i = 0; i < c.dimension(); i++) {
                messages.putScalar(k, i, reveal.toValueScale(FixedPoint.decode(c.publishedAt(i))));
            }
        }
    }

    /** The survivors' openings of their terms with the lost parties, as honest survivors open them. */
    private List<PairwiseOpening> openings(List<PartyCommitments> published, List<PartySecrets> secrets, Set<Integer> lost) {
        List<PairwiseOpening> out = new ArrayList<>();
        for (int s = 0; s < published.size(); s++) {
            if (published.get(s) == null || lost.contains(s)) {
                continue;
            }
            for (int l : graph.neighbours(s)) {
                if (lost.contains(l)) {
                    out.add(PairwiseOpening.of(s, secrets.get(s), l));
                }
            }
        }
        return out;
    }

    private SortedSet<Integer> survivorsOf(List<PartyCommitments> published, Set<Integer> lost) {
        SortedSet<Integer> out = new TreeSet<>();
        for (int k = 0; k < published.size(); k++) {
            if (published.get(k) != null && !lost.contains(k)) {
                out.add(k);
            }
        }
        return out;
    }

    /** The survivors' mean in value units: each published unit-scale value maps back by {@code -C + 2C x}. */
    private double[] valueScaleMean(BigInteger[] aggregate, int survivors) {
        double[] mean = new double[aggregate.length];
        for (int i = 0; i < aggregate.length; i++) {
            mean[i] = reveal.toValueScale(aggregate[i].doubleValue() / FixedPoint.ONE / survivors);
        }
        return mean;
    }

    /** A failure found beside the proofs: a message other than the published value, or a missing opening. */
    private record Finding(VerificationFailure failure, String reason) {
    }

    private static List<PartyVerdict> merge(VerificationReport report, Map<Integer, List<Finding>> extra) {
        List<PartyVerdict> out = new ArrayList<>();
        for (PartyVerdict v : report.verdicts()) {
            List<Finding> more = extra.get(v.party());
            if (more == null) {
                out.add(v);
                continue;
            }
            Set<VerificationFailure> failures = v.failures().isEmpty() ? EnumSet.noneOf(VerificationFailure.class) : EnumSet.copyOf(v.failures());
            List<String> reasons = new ArrayList<>(v.reasons());
            for (Finding f : more) {
                failures.add(f.failure());
                reasons.add(f.reason());
            }
            out.add(new PartyVerdict(v.party(), failures, reasons));
        }
        return out;
    }

    private static PairwiseTerm termOf(PartySecrets secrets, int peer) {
        return secrets.pairwise().stream().filter(t -> t.peer() == peer).findFirst().orElseThrow();
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }
}
