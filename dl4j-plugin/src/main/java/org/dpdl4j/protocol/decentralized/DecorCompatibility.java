package org.dpdl4j.protocol.decentralized;

/**
 * Deviations of the Decor reference code from the paper (spec section 3.7), available only for
 * reproducing its figures; the default, {@link #NONE}, follows the paper.
 *
 * @param pairwiseNoiseDrawnOnce the reference a9a/MNIST script draws the pairwise noise once before
 *                               training and reuses it at every step (the paper draws it fresh each step)
 * @param scaleByMixingWeight    the reference script multiplies each pairwise term by W_ij, so its std is
 *                               sigma_cor W_ij instead of sigma_cor
 */
public record DecorCompatibility(boolean pairwiseNoiseDrawnOnce, boolean scaleByMixingWeight) implements java.io.Serializable {
    /** The paper's algorithm. */
    public static final DecorCompatibility NONE = new DecorCompatibility(false, false);
    /** Both deviations of the reference a9a/MNIST training script. */
    public static final DecorCompatibility REFERENCE_CODE = new DecorCompatibility(true, true);

    /** Whether any deviation is on. */
    public boolean any() {
        return pairwiseNoiseDrawnOnce || scaleByMixingWeight;
    }

    /** Why a run with a deviation on has no guarantee (its ledger's mark); null for the paper's algorithm. */
    public String notAGuarantee() {
        return any() ? "reference-code compatibility is on (" + this + "): the run is not the analysed algorithm, and its"
                + " ledger prices the analysed one; leave the compatibility off for a guarantee" : null;
    }
}
