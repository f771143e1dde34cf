package org.dpdl4j.data.libsvm;

import java.util.Objects;

/**
 * What a binary LIBSVM file is expected to hold.
 *
 * @param numFeatures the feature dimension d: indices must lie in 1..d. Fixed rather than inferred,
 *                    because a test file may never use the highest index (a9a.t never has 123)
 * @param labels      how the two label values map to classes 0 and 1
 */
public record LibSvmFormat(int numFeatures, BinaryLabelScheme labels) {
    /** a9a (Adult): 123 binary features, labels +1 / -1. */
    public static final LibSvmFormat A9A = new LibSvmFormat(123, BinaryLabelScheme.PLUS_MINUS_ONE);
    /** covtype.binary and covtype.binary.scale: 54 features, labels 1 / 2 (2 = cover type 2). */
    public static final LibSvmFormat COVTYPE_BINARY = new LibSvmFormat(54, BinaryLabelScheme.ONE_TWO);

    public LibSvmFormat {
        Objects.requireNonNull(labels, "labels");
        if (numFeatures < 1) {
            throw new IllegalArgumentException("the number of features must be at least 1, got " + numFeatures);
        }
    }
}
