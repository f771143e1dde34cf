package org.dpdl4j.data.synthetic;

/** The norm in which generated feature vectors are bounded by 1. */
public enum FeatureNorm {
    /** {@code ||x||_1 <= 1}: a loss that is 1-Lipschitz in L1 (the Laplace mechanism of Bellet et al.). */
    L1,
    /** {@code ||x||_2 <= 1}: a loss that is 1-Lipschitz in L2 (their Gaussian variant). */
    L2;

    /** The largest norm of a point of the cube [-1, 1]^p in this norm: p for L1, sqrt(p) for L2. */
    public double cubeRadius(int p) {
        return this == L1 ? p : Math.sqrt(p);
    }
}
