package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;
import org.dpdl4j.graph.Edge;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The signed edge agreements of a round and the parties' public keys, which let the verifier attribute a pairwise
 * term that does not cancel to the end that published something other than what it signed
 * (see {@link EdgeAgreement}).
 */
public final class EdgeAgreements {
    private static final EdgeAgreements NONE = new EdgeAgreements(null, Map.of(), List.of());

    private final PedersenGroup group;
    private final Map<Integer, ECPoint> publicKeys;
    private final List<SignedEdgeAgreement> signed;

    /**
     * @param publicKeys each party's signature key, as the verifier knows it independently of the contributions
     * @param signed     the agreements the parties published; unsigned, wrongly signed or ambiguous ones count as absent
     */
    public EdgeAgreements(PedersenGroup group, Map<Integer, ECPoint> publicKeys, List<SignedEdgeAgreement> signed) {
        this.group = group;
        this.publicKeys = Map.copyOf(publicKeys);
        this.signed = List.copyOf(signed);
    }

    /** No agreements: every edge whose terms do not cancel stays disputed. */
    public static EdgeAgreements none() {
        return NONE;
    }

    /**
     * The agreement both ends of {@code edge} signed for {@code round} with {@code dimension} coordinates, or null when
     * there is none, or more than one (both ends signed twice: nothing to attribute by).
     */
    EdgeAgreement agreedOn(long round, Edge edge, int dimension) {
        EdgeAgreement found = null;
        for (SignedEdgeAgreement s : signed) {
            EdgeAgreement a = s.agreement();
            if (a.round() != round || !a.edge().equals(edge) || a.lowerCommitments().size() != dimension
                    || !s.signedByBothEnds(Objects.requireNonNull(group), publicKeys)) {
                continue;
            }
            if (found != null && !found.equals(a)) {
                return null;
            }
            found = a;
        }
        return found;
    }
}
