package org.dpdl4j.audit;

/**
 * What the eavesdropper's score of a canary reads each round: a fixed linear combination {@code w^T y} of the n
 * released gradients on the canary's coordinate. Any fixed choice gives a valid audit; they differ in which bugs
 * they have the power to catch. Choose one before the run (taking the best of several afterwards would need a
 * correction of the confidence).
 */
public enum EavesdropperStatistic {
    /** {@code w = Sigma^-1 e_a}: the likelihood ratio, the most powerful test when the noise is what the run claims. */
    LIKELIHOOD_RATIO,
    /**
     * {@code w = e_a}: the canaries' node's own message, whose pairwise terms do not cancel; it has power against
     * pairwise noise that is counted but missing from that message.
     */
    OWN_MESSAGE
}
