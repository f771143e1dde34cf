package org.dpdl4j.data.covtype;

/** The classification task built from covtype's cover types. */
public enum CovtypeTask {
    /** The 7 cover types: cover type c becomes class c - 1. */
    SEVEN_CLASS(7),
    /**
     * LIBSVM's covtype.binary task: cover type 2 (Lodgepole Pine) against all others; cover type 2
     * becomes class 1, every other cover type class 0.
     */
    TYPE2_VS_REST(2);

    private final int numClasses;

    CovtypeTask(int numClasses) {
        this.numClasses = numClasses;
    }

    /** The number of classes of the task. */
    public int numClasses() {
        return numClasses;
    }

    /** The class of a cover type 1..7 under this task. */
    public int classOfCoverType(int coverType) {
        if (coverType < 1 || coverType > 7) {
            throw new IllegalArgumentException("cover type must be in 1..7, got " + coverType);
        }
        return this == SEVEN_CLASS ? coverType - 1 : (coverType == 2 ? 1 : 0);
    }
}
