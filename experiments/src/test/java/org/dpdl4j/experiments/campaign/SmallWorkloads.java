package org.dpdl4j.experiments.campaign;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.dpdl4j.attacks.MnistTestSet;
import org.dpdl4j.attacks.observe.CampaignSettings;
import org.dpdl4j.attacks.observe.RunWorkload;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.TrainTest;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.models.ImageShape;

/** Campaign workloads on real MNIST: the first rows of the test file, small enough for unit tests, or the whole training set. */
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

    /**
     * The 60,000 MNIST training images (the size the protocols' planned rounds need, as in a report) and the first
     * {@code test} test images; skipped without DPDL4J_DATA.
     */
    static RunWorkload fullMnist(int test, int[] targets, int attackRound) {
        String dir = System.getenv(DataDirectory.ENVIRONMENT_VARIABLE);
        assumeTrue(dir != null && !dir.isBlank(), "skipped: real MNIST needed; set DPDL4J_DATA to the data directory");
        TrainTest mnist;
        try {
            mnist = Datasets.mnist(DataDirectory.of(Path.of(dir)), PixelScaling.UNIT_INTERVAL);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read MNIST under " + dir, e);
        }
        int[] testRows = new int[test];
        for (int i = 0; i < test; i++) {
            testRows[i] = i;
        }
        return new RunWorkload(mnist.train(), mnist.test().subset(testRows), targets, ImageShape.MNIST,
                CampaignSettings.defaults().withAttackRound(attackRound));
    }
}
