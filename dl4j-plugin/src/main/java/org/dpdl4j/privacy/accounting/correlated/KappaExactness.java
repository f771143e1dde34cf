package org.dpdl4j.privacy.accounting.correlated;

/** Whether a reported kappa is the exact worst case or a valid upper bound on it. */
public enum KappaExactness {
    /** The exact maximum over the adversary's honest sets and their vertices. */
    EXACT,
    /** A proven upper bound (used when enumerating the colluding sets is too expensive). */
    UPPER_BOUND
}
