package org.dpdl4j.privacy.accounting;

/** How each step chooses the units it touches; the accounting assumes exactly this scheme. */
public enum SamplingScheme {
    /** Each unit joins each batch independently with probability q (variable batch size). */
    POISSON,
    /** Each batch is a uniformly random subset of fixed size, drawn without replacement. */
    FIXED_SIZE_WITHOUT_REPLACEMENT,
    /** Every step uses every unit (q = 1). */
    FULL_BATCH
}
