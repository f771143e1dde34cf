package org.dpdl4j.data;

import java.util.Objects;

/**
 * A training set and the test set that goes with it.
 *
 * @param train examples to learn from
 * @param test  held-out examples with the same features and classes
 */
public record TrainTest(LabeledData train, LabeledData test) {
    public TrainTest {
        Objects.requireNonNull(train, "train");
        Objects.requireNonNull(test, "test");
        if (train.numFeatures() != test.numFeatures()) {
            throw new IllegalArgumentException("train has " + train.numFeatures() + " features but test has "
                    + test.numFeatures() + "; both sets must come from the same feature layout");
        }
        if (train.numClasses() != test.numClasses()) {
            throw new IllegalArgumentException("train has " + train.numClasses() + " classes but test has "
                    + test.numClasses() + "; build both with the same task");
        }
    }
}
