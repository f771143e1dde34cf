package org.dpdl4j.protocol.federated.verification;

import java.util.Objects;

/**
 * Where a proof belongs, hashed into its Fiat-Shamir challenge so that a proof made for one place verifies nowhere
 * else: the round, the proving party, the coordinate of the parameter vector and the statement within it (for example
 * {@code "pairwise:peer=3"} or {@code "range:low:bit=5"}). A proof copied from another party, round, edge or
 * coordinate is checked under the verifier's context, gets another challenge and fails.
 *
 * @param round      the GOPA round
 * @param party      the proving party's index in the graph
 * @param coordinate the index of the parameter within the party's vector
 * @param statement  which statement about that coordinate; empty for the coordinate as a whole
 */
public record ProofContext(long round, int party, int coordinate, String statement) {
    public ProofContext {
        Objects.requireNonNull(statement, "statement");
        if (party < 0 || coordinate < 0) {
            throw new IllegalArgumentException("a proof context needs a party and a coordinate >= 0, got party " + party
                    + ", coordinate " + coordinate);
        }
    }

    /** The context of coordinate {@code coordinate} of {@code party}'s contribution in {@code round}. */
    public static ProofContext of(long round, int party, int coordinate) {
        return new ProofContext(round, party, coordinate, "");
    }

    /** This context narrowed to one statement; narrowing twice joins the names with '/'. */
    public ProofContext about(String what) {
        return new ProofContext(round, party, coordinate, statement.isEmpty() ? what : statement + "/" + what);
    }
}
