package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;
import org.dpdl4j.graph.Graph;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Checks a spot-checked round of verifiable GOPA: every party's commitments to all p coordinates
 * ({@link PartyCommitments}) and its proofs for the k coordinates the round's {@link SpotCheck} chose
 * ({@link SpotCheckProof}). The checks on a chosen coordinate are {@link GopaVerifier}'s (range, cancellation with the
 * edges' signed agreements, sum), under the same contexts; the coordinates not chosen are committed, not proven.
 *
 * <p>Then {@link #withoutLostParties} takes the parties that failed or dropped out out of the aggregate: each survivor
 * opens its term with each lost neighbour ({@link PairwiseOpening}), checked against its commitments.
 */
public final class SpotCheckVerifier {
    private final PedersenGroup group;
    private final Graph graph;
    private final long round;
    private final int dimension;

    /**
     * @param graph     the graph whose edges carry pairwise terms
     * @param round     the round being checked
     * @param dimension p, the coordinates every party commits to
     */
    public SpotCheckVerifier(PedersenGroup group, Graph graph, long round, int dimension) {
        this.group = Objects.requireNonNull(group, "group");
        this.graph = Objects.requireNonNull(graph, "graph");
        if (dimension < 1) {
            throw new IllegalArgumentException("a GOPA round publishes at least one coordinate per party, got dimension " + dimension);
        }
        this.round = round;
        this.dimension = dimension;
    }

    /** The verdicts of a round and the seconds spent checking each party. */
    public record Checked(VerificationReport report, double[] secondsPerParty) {
        public Checked {
            secondsPerParty = secondsPerParty.clone();
        }

        @Override
        public double[] secondsPerParty() {
            return secondsPerParty.clone();
        }
    }

    /**
     * Checks every party's commitments and its proofs of the chosen coordinates. The report's aggregate is the sum of
     * the published values of the well-formed parties, before any term is opened.
     *
     * @param published  one per party, in party order; null for a party that published nothing (dropped out)
     * @param proofs     one per party, in party order; null where none was given
     * @param chosen     the coordinates {@link SpotCheck#coordinates} chose from {@code published}
     * @param agreements the edges' signed agreements over all p coordinates
     */
    public Checked verify(List<PartyCommitments> published, List<SpotCheckProof> proofs, int[] chosen, EdgeAgreements agreements) {
        int n = graph.vertexCount();
        if (published.size() != n || proofs.size() != n) {
            throw new IllegalArgumentException("the graph has " + n + " parties but " + published.size() + " commitments and "
                    + proofs.size() + " proofs were given; pass one per party, null for a party that published nothing");
        }
        int[] expected = SpotCheck.coordinates(group, round, published, dimension, chosen.length);
        if (!Arrays.equals(expected, chosen)) {
            throw new IllegalArgumentException("the coordinates to check are not the round's challenge: recompute them with"
                    + " SpotCheck.coordinates from the published commitments");
        }
        VerifierFindings findings = new VerifierFindings(n);
        boolean[] wellFormed = new boolean[n];
        double[] seconds = new double[n];
        for (int k = 0; k < n; k++) {
            long start = System.nanoTime();
            String problem = shapeProblem(k, published.get(k), proofs.get(k), chosen);
            wellFormed[k] = problem == null;
            if (problem != null) {
                findings.fail(k, published.get(k) == null ? VerificationFailure.DROPPED_OUT : VerificationFailure.MALFORMED, problem);
            }
            seconds[k] += (System.nanoTime() - start) / 1e9;
        }
        for (int k = 0; k < n; k++) {
            if (wellFormed[k]) {
                long start = System.nanoTime();
                checkProofs(k, published, proofs.get(k), chosen, wellFormed, agreements, findings);
                seconds[k] += (System.nanoTime() - start) / 1e9;
            }
        }
        BigInteger[] aggregate = zeros();
        for (int k = 0; k < n; k++) {
            if (wellFormed[k]) {
                add(aggregate, published.get(k).published(), 1);
            }
        }
        return new Checked(findings.report(round, aggregate), seconds);
    }

    /**
     * The aggregate of the survivors: parties that published and are not lost, less their opened terms towards the
     * lost ones, and the survivors whose opening is missing or does not match their commitments (those must be lost
     * too, and the aggregate taken again without them).
     *
     * @param published one per party, null for a party that published nothing
     * @param lost      the parties excluded from the round (failed a check or dropped out)
     * @param openings  the survivors' openings of their terms towards the lost parties
     */
    public Survivors withoutLostParties(List<PartyCommitments> published, Set<Integer> lost, Collection<PairwiseOpening> openings) {
        BigInteger[] aggregate = zeros();
        SortedSet<Integer> survivors = new TreeSet<>();
        SortedMap<Integer, String> unopened = new TreeMap<>();
        for (int s = 0; s < graph.vertexCount(); s++) {
            if (lost.contains(s) || published.get(s) == null) {
                continue;
            }
            survivors.add(s);
            add(aggregate, published.get(s).published(), 1);
            for (int l : graph.neighbours(s)) {
                if (!lost.contains(l)) {
                    continue;
                }
                int party = s;
                PairwiseOpening opening = openings.stream().filter(o -> o.party() == party && o.peer() == l).findFirst().orElse(null);
                if (opening == null || !opening.opens(group, published.get(s))) {
                    unopened.merge(s, (opening == null ? "no opening" : "an opening that does not match its commitments")
                            + " of its term with lost party " + l, (a, b) -> a + "; " + b);
                } else {
                    add(aggregate, opening.values(), -1);
                }
            }
        }
        return new Survivors(survivors, aggregate, unopened);
    }

    /**
     * What is left of a round without its lost parties.
     *
     * @param parties   the survivors
     * @param aggregate per coordinate, in {@link FixedPoint} units: the sum of their published values less their opened
     *                  terms; when they are honest, {@code sum_s (theta_s + eta_s)} plus the terms among them, which cancel
     * @param unopened  survivors that did not open a term with a lost party, with the reason
     */
    public record Survivors(SortedSet<Integer> parties, BigInteger[] aggregate, SortedMap<Integer, String> unopened) {
        public Survivors {
            parties = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(parties));
            aggregate = aggregate.clone();
            unopened = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(unopened));
        }

        @Override
        public BigInteger[] aggregate() {
            return aggregate.clone();
        }
    }

    private void checkProofs(int k, List<PartyCommitments> published, SpotCheckProof proof, int[] chosen, boolean[] wellFormed,
                             EdgeAgreements agreements, VerifierFindings findings) {
        PartyCommitments mine = published.get(k);
        for (int i : chosen) {
            CoordinateProofs c = proof.coordinates().get(i);
            ProofContext context = ProofContext.of(round, k, i);
            if (!c.range().verify(group, mine.values().get(i), PartyContribution.VALUE_UPPER_BOUND, context)) {
                findings.fail(k, VerificationFailure.VALUE_OUT_OF_RANGE, "coordinate " + i + ": range proof rejected");
            }
            for (Map.Entry<Integer, List<ECPoint>> entry : mine.pairwise().entrySet()) {
                int l = entry.getKey();
                if (!wellFormed[l]) {
                    continue;   // a dropped or malformed neighbour is named already; its edge cannot be checked
                }
                ECPoint own = entry.getValue().get(i);
                ECPoint theirs = published.get(l).pairwise().get(k).get(i);
                if (!c.cancellation().get(l).verify(group, own.add(theirs).normalize(), PartyContribution.cancellationContext(context, l))) {
                    findings.cancellationFailed(round, dimension, k, l, i, own, theirs, agreements);
                }
            }
            if (!c.sum().verify(group, mine.sumStatement(group, i), PartyContribution.sumContext(context))) {
                findings.fail(k, VerificationFailure.PUBLISHED_VALUE_MISMATCH, "coordinate " + i + ": published value "
                        + FixedPoint.decode(mine.publishedAt(i)) + " is not proven to be the sum of the committed parts");
            }
        }
    }

    /** Why k's commitments or proofs cannot be checked, or null when their shape is right. */
    private String shapeProblem(int k, PartyCommitments c, SpotCheckProof proof, int[] chosen) {
        if (c == null) {
            return "party " + k + " published no commitments (dropped out)";
        }
        if (c.party() != k || c.round() != round) {
            return "the commitments in party " + k + "'s place are labelled party " + c.party() + ", round " + c.round();
        }
        if (c.dimension() != dimension || c.values().size() != dimension || c.noise().size() != dimension) {
            return "the commitments cover " + c.dimension() + " coordinates, the round " + dimension;
        }
        Set<Integer> neighbours = Arrays.stream(graph.neighbours(k)).boxed().collect(Collectors.toSet());
        if (!c.pairwise().keySet().equals(neighbours) || c.pairwise().values().stream().anyMatch(v -> v.size() != dimension)) {
            return "pairwise commitments for " + c.pairwise().keySet() + ", but party " + k + "'s neighbours are " + new TreeSet<>(neighbours);
        }
        if (!c.values().stream().allMatch(group::isGroupElement) || !c.noise().stream().allMatch(group::isGroupElement)
                || !c.pairwise().values().stream().flatMap(List::stream).allMatch(group::isGroupElement)) {
            return "a commitment is not a point of the group";
        }
        if (proof == null || proof.party() != k || proof.round() != round) {
            return "no proofs for round " + round + " in party " + k + "'s place";
        }
        for (int i : chosen) {
            CoordinateProofs p = proof.coordinates().get(i);
            if (p == null || !p.cancellation().keySet().equals(neighbours)) {
                return "no complete proofs for challenged coordinate " + i;
            }
        }
        return null;
    }

    private BigInteger[] zeros() {
        BigInteger[] out = new BigInteger[dimension];
        Arrays.fill(out, BigInteger.ZERO);
        return out;
    }

    private static void add(BigInteger[] into, long[] values, int sign) {
        for (int i = 0; i < into.length; i++) {
            into[i] = into[i].add(BigInteger.valueOf(sign * values[i]));
        }
    }
}
