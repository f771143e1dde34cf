package org.dpdl4j.protocol.federated.verification;

/** The ways a test makes a party of {@link SpotCheckedGopa} lie; each must be caught on the coordinates it proves. */
enum Lie {
    /** Its value is 1.5 at unit scale (twice the clip in value units) on every coordinate: outside the proven range. */
    RANGE,
    /** It signs the honest agreement with its first neighbour, then commits to that term plus a bias and publishes accordingly. */
    CANCELLATION,
    /** Its commitments are honest, but it publishes (and sends) each value plus a bias. */
    PUBLISHED_VALUE,
    /** Its proofs were made for another round and replayed in this one. */
    FORGED_PROOF
}
