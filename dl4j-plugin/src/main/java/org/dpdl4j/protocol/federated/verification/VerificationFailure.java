package org.dpdl4j.protocol.federated.verification;

/** Which property of a party's contribution the verifier could not confirm. */
public enum VerificationFailure {
    /** No contribution: the party dropped out (its neighbours must open their terms with it). */
    DROPPED_OUT("the party published nothing"),
    /** A contribution for another party or round, or of the wrong shape (coordinates, neighbours, points). */
    MALFORMED("the contribution is malformed"),
    /** The range proof of some coordinate does not verify: theta may lie outside [0, 1]. */
    VALUE_OUT_OF_RANGE("theta is not proven to lie in [0, 1]"),
    /** A cancellation proof does not verify: Delta_kl = -Delta_lk is not proven for some edge. */
    PAIRWISE_NOT_CANCELLING("a pairwise term is not proven to cancel with its neighbour's"),
    /** The sum proof does not verify: the published value may differ from the sum of the committed parts. */
    PUBLISHED_VALUE_MISMATCH("the published value is not proven to be theta + sum Delta + eta"),
    /** Binomial noise was required and the party's eta is not the one its proven bits and the public coins make. */
    NOISE_NOT_FROM_COINS("eta is not proven to come from the party's committed bits and the public coins"),
    /** A neighbour dropped out and the party did not open its term with it, or opened something else. */
    DROPOUT_TERM_NOT_OPENED("the pairwise term with a party that dropped out is not opened");

    private final String meaning;

    VerificationFailure(String meaning) {
        this.meaning = meaning;
    }

    /** What the failure means, in words. */
    public String meaning() {
        return meaning;
    }
}
