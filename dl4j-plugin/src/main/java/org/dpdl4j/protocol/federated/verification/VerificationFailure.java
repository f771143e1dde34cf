package org.dpdl4j.protocol.federated.verification;

/** Which property of a party's contribution the verifier could not confirm. */
public enum VerificationFailure {
    /** No contribution, or one for another party or round, or of the wrong shape (coordinates, neighbours). */
    MALFORMED("the contribution is missing or malformed"),
    /** The range proof of some coordinate does not verify: theta may lie outside [0, 1]. */
    VALUE_OUT_OF_RANGE("theta is not proven to lie in [0, 1]"),
    /** A cancellation proof does not verify: Delta_kl = -Delta_lk is not proven for some edge. */
    PAIRWISE_NOT_CANCELLING("a pairwise term is not proven to cancel with its neighbour's"),
    /** The sum proof does not verify: the published value may differ from the sum of the committed parts. */
    PUBLISHED_VALUE_MISMATCH("the published value is not proven to be theta + sum Delta + eta");

    private final String meaning;

    VerificationFailure(String meaning) {
        this.meaning = meaning;
    }

    /** What the failure means, in words. */
    public String meaning() {
        return meaning;
    }
}
