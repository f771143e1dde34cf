package org.dpdl4j.experiments.campaign;

import org.dpdl4j.attacks.MnistTestSet;
import org.dpdl4j.attacks.observe.CampaignSettings;
import org.dpdl4j.attacks.observe.RunWorkload;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.models.ImageShape;

/** Campaign workloads on the first rows of the MNIST test file, small enough for unit tests. */
final class SmallWorkloads {
    private SmallWorkloads() {
    }

    /**
     * The first {@code train} rows as the training set, the next {@code test} as the test set.
     *
     * @param targets     training-set indices of the attacked images
     * @param attackRound rounds of training before the first attacked release
     */
    static RunWorkload mnist(int train, int test, int[] targets, int attackRound) {
        LabeledData mnist = MnistTestSet.load(PixelScaling.UNIT_INTERVAL);
        int[] trainRows = new int[train];
        int[] testRows = new int[test];
        for (int i = 0; i < train; i++) {
            trainRows[i] = i;
        }
        for (int i = 0; i < test; i++) {
            testRows[i] = train + i;
        }
        return new RunWorkload(mnist.subset(trainRows), mnist.subset(testRows), targets, ImageShape.MNIST,
                CampaignSettings.defaults().withAttackRound(attackRound));
    }
}
