package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;
import org.dpdl4j.graph.Graph;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Checks the contributions of all parties of one round of verifiable GOPA over a graph and names those whose proofs
 * fail. For party k and every coordinate it checks that
 * <ol>
 *   <li>the contribution is k's, for this round, with the expected number of coordinates, a commitment and a
 *       cancellation proof for exactly k's neighbours, and valid group elements ({@link VerificationFailure#MALFORMED});</li>
 *   <li>the range proof shows theta_k in [0, 1] ({@link VerificationFailure#VALUE_OUT_OF_RANGE});</li>
 *   <li>for every neighbour l, k's proof shows {@code Com(Delta_kl) + Com(Delta_lk)} commits to zero
 *       ({@link VerificationFailure#PAIRWISE_NOT_CANCELLING});</li>
 *   <li>the sum proof shows the published value is the sum of the committed parts
 *       ({@link VerificationFailure#PUBLISHED_VALUE_MISMATCH});</li>
 *   <li>for every neighbour l that dropped out (published nothing, {@link VerificationFailure#DROPPED_OUT}), k opened
 *       its term with l ({@link PairwiseOpening}, else {@link VerificationFailure#DROPOUT_TERM_NOT_OPENED}).</li>
 * </ol>
 * Every proof is checked under the verifier's own context (this round, party k, the coordinate, the statement), so
 * a proof replayed from another party, round, coordinate or edge fails. An edge to a malformed neighbour is not
 * held against k: the neighbour is already named. See {@link VerificationReport} on disputed edges.
 */
public final class GopaVerifier {
    private final PedersenGroup group;
    private final Graph graph;
    private final long round;
    private final int dimension;

    /**
     * @param graph     the graph whose edges carry pairwise terms
     * @param round     the round being checked
     * @param dimension the number of coordinates every party publishes
     */
    public GopaVerifier(PedersenGroup group, Graph graph, long round, int dimension) {
        this.group = Objects.requireNonNull(group, "group");
        this.graph = Objects.requireNonNull(graph, "graph");
        if (dimension < 1) {
            throw new IllegalArgumentException("a GOPA round publishes at least one coordinate per party, got dimension " + dimension);
        }
        this.round = round;
        this.dimension = dimension;
    }

    /**
     * Checks every party of a round in which every party published.
     *
     * @param contributions one per party, in party order; a null entry is a party that published nothing
     */
    public VerificationReport verify(List<PartyContribution> contributions) {
        return verify(contributions, List.of());
    }

    /**
     * Checks every party, with the openings of the terms towards the parties that dropped out.
     *
     * @param contributions one per party, in party order; a null entry is a party that dropped out
     * @param openings      the neighbours' openings of their terms with the parties that dropped out
     */
    public VerificationReport verify(List<PartyContribution> contributions, List<PairwiseOpening> openings) {
        return verify(contributions, openings, EdgeAgreements.none());
    }

    /**
     * Checks every party, with drop-out openings and the edges' signed agreements: when an edge's terms do not
     * cancel and both ends signed an agreement, only the end whose published commitment differs from the agreed one
     * is named for that edge, and the edge is not disputed.
     *
     * @param contributions one per party, in party order; a null entry is a party that dropped out
     * @param openings      the neighbours' openings of their terms with the parties that dropped out
     * @param agreements    the edges' signed agreements and the parties' public keys
     */
    public VerificationReport verify(List<PartyContribution> contributions, List<PairwiseOpening> openings,
                                     EdgeAgreements agreements) {
        return verify(contributions, openings, agreements, NoiseEvidence.none());
    }

    /**
     * Checks every party as {@link #verify(List, List, EdgeAgreements)} does and, with noise evidence, that every
     * party's eta is the {@link BinomialNoise} its proven bits and the public coins make
     * ({@link VerificationFailure#NOISE_NOT_FROM_COINS}).
     */
    public VerificationReport verify(List<PartyContribution> contributions, List<PairwiseOpening> openings,
                                     EdgeAgreements agreements, NoiseEvidence noise) {
        Objects.requireNonNull(agreements, "agreements");
        Objects.requireNonNull(noise, "noise");
        int n = graph.vertexCount();
        if (contributions.size() != n) {
            throw new IllegalArgumentException("the graph has " + n + " parties but " + contributions.size()
                    + " contributions were given; pass one per party, null for a party that published nothing");
        }
        VerifierFindings findings = new VerifierFindings(n);
        boolean[] wellFormed = new boolean[n];
        for (int k = 0; k < n; k++) {
            String problem = shapeProblem(k, contributions.get(k));
            wellFormed[k] = problem == null;
            if (problem != null) {
                findings.fail(k, contributions.get(k) == null ? VerificationFailure.DROPPED_OUT : VerificationFailure.MALFORMED, problem);
            }
        }
        for (int k = 0; k < n; k++) {
            if (wellFormed[k]) {
                checkProofs(k, contributions, wellFormed, agreements, findings);
                checkNoise(k, contributions.get(k), noise, findings);
            }
        }
        BigInteger[] aggregate = new BigInteger[dimension];
        Arrays.fill(aggregate, BigInteger.ZERO);
        for (int k = 0; k < n; k++) {
            if (wellFormed[k]) {
                for (int i = 0; i < dimension; i++) {
                    aggregate[i] = aggregate[i].add(BigInteger.valueOf(contributions.get(k).coordinates().get(i).published()));
                }
            }
        }
        for (int dropped = 0; dropped < n; dropped++) {
            if (contributions.get(dropped) == null) {
                removeOpenedTerms(dropped, contributions, wellFormed, openings, aggregate, findings);
            }
        }
        return findings.report(round, aggregate);
    }

    /** Party k's range, cancellation and sum proofs, coordinate by coordinate, under the verifier's own contexts. */
    private void checkProofs(int k, List<PartyContribution> contributions, boolean[] wellFormed, EdgeAgreements agreements,
                             VerifierFindings findings) {
        PartyContribution mine = contributions.get(k);
        for (int i = 0; i < dimension; i++) {
            CoordinateContribution c = mine.coordinates().get(i);
            ProofContext context = ProofContext.of(round, k, i);
            if (!c.range().verify(group, c.valueCommitment(), PartyContribution.VALUE_UPPER_BOUND, context)) {
                findings.fail(k, VerificationFailure.VALUE_OUT_OF_RANGE, "coordinate " + i + ": range proof rejected");
            }
            for (Map.Entry<Integer, ECPoint> entry : c.pairwiseCommitments().entrySet()) {
                int l = entry.getKey();
                if (!wellFormed[l]) {
                    continue;   // a dropped or malformed neighbour is named already; its edge cannot be checked
                }
                ECPoint theirs = contributions.get(l).coordinates().get(i).pairwiseCommitments().get(k);
                ECPoint statement = entry.getValue().add(theirs).normalize();
                if (!c.cancellation().get(l).verify(group, statement, PartyContribution.cancellationContext(context, l))) {
                    findings.cancellationFailed(round, dimension, k, l, i, entry.getValue(), theirs, agreements);
                }
            }
            if (!c.sum().verify(group, c.sumStatement(group), PartyContribution.sumContext(context))) {
                findings.fail(k, VerificationFailure.PUBLISHED_VALUE_MISMATCH, "coordinate " + i + ": published value "
                        + FixedPoint.decode(c.published()) + " is not proven to be the sum of the committed parts");
            }
        }
    }

    private void checkNoise(int k, PartyContribution contribution, NoiseEvidence noise, VerifierFindings findings) {
        if (!noise.required()) {
            return;
        }
        for (int i = 0; i < dimension; i++) {
            String problem = noise.problem(group, round, k, i, contribution.coordinates().get(i));
            if (problem != null) {
                findings.fail(k, VerificationFailure.NOISE_NOT_FROM_COINS, problem);
            }
        }
    }

    /** Checks the openings of the terms towards a party that dropped out and takes them out of the aggregate. */
    private void removeOpenedTerms(int dropped, List<PartyContribution> contributions, boolean[] wellFormed,
                                   List<PairwiseOpening> openings, BigInteger[] aggregate, VerifierFindings findings) {
        for (int l : graph.neighbours(dropped)) {
            if (!wellFormed[l]) {
                continue;
            }
            PairwiseOpening opening = openings.stream().filter(o -> o.party() == l && o.peer() == dropped).findFirst().orElse(null);
            if (opening == null || !opening.opens(group, contributions.get(l))) {
                findings.fail(l, VerificationFailure.DROPOUT_TERM_NOT_OPENED, (opening == null ? "no opening"
                        : "an opening that does not match its commitments") + " of its term with party " + dropped
                        + ", which dropped out");
                continue;
            }
            for (int i = 0; i < dimension; i++) {
                aggregate[i] = aggregate[i].subtract(BigInteger.valueOf(opening.values()[i]));
            }
        }
    }

    /** Why k's contribution cannot be checked, or null when its shape is right. */
    private String shapeProblem(int k, PartyContribution contribution) {
        if (contribution == null) {
            return "party " + k + " published no contribution (dropped out)";
        }
        if (contribution.party() != k) {
            return "the contribution in party " + k + "'s place is labelled party " + contribution.party();
        }
        if (contribution.round() != round) {
            return "the contribution is labelled round " + contribution.round() + ", this is round " + round;
        }
        if (contribution.coordinates().size() != dimension) {
            return "the contribution has " + contribution.coordinates().size() + " coordinates, the round " + dimension;
        }
        Set<Integer> neighbours = Arrays.stream(graph.neighbours(k)).boxed().collect(Collectors.toSet());
        for (int i = 0; i < dimension; i++) {
            CoordinateContribution c = contribution.coordinates().get(i);
            if (!c.pairwiseCommitments().keySet().equals(neighbours) || !c.cancellation().keySet().equals(neighbours)) {
                return "coordinate " + i + " has pairwise commitments for " + c.pairwiseCommitments().keySet() + " and proofs for "
                        + c.cancellation().keySet() + ", but party " + k + "'s neighbours are " + new TreeSet<>(neighbours);
            }
            if (!group.isGroupElement(c.valueCommitment()) || !group.isGroupElement(c.noiseCommitment())
                    || !c.pairwiseCommitments().values().stream().allMatch(group::isGroupElement)) {
                return "coordinate " + i + " has a commitment that is not a point of the group";
            }
        }
        return null;
    }
}
