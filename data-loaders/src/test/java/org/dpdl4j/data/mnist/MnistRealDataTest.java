package org.dpdl4j.data.mnist;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.RealData;
import org.dpdl4j.data.TrainTest;
import org.dpdl4j.data.catalog.DatasetCatalog;
import org.dpdl4j.data.catalog.Datasets;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads the real MNIST files; skipped when DPDL4J_DATA does not provide them. */
class MnistRealDataTest {
    private static final Logger LOG = LoggerFactory.getLogger(MnistRealDataTest.class);

    @Test
    void countsHistogramsAndPixelStatisticsMatchTheReferenceCopy() throws IOException {
        for (String f : new String[] {DatasetCatalog.MNIST_TRAIN_IMAGES, DatasetCatalog.MNIST_TRAIN_LABELS,
                DatasetCatalog.MNIST_TEST_IMAGES, DatasetCatalog.MNIST_TEST_LABELS}) {
            RealData.file(f);
        }
        // The test set first: it also warms ND4J up, so the timing below measures reading.
        LabeledData testStd = MnistReader.read(RealData.file(DatasetCatalog.MNIST_TEST_IMAGES),
                RealData.file(DatasetCatalog.MNIST_TEST_LABELS), PixelScaling.STANDARDIZED);

        long start = System.nanoTime();
        TrainTest mnist = Datasets.mnist(RealData.directory(), PixelScaling.UNIT_INTERVAL);
        double seconds = (System.nanoTime() - start) / 1e9;
        LabeledData train = mnist.train();
        INDArray asDouble = train.features().castTo(DataType.DOUBLE);
        LOG.info("read the 70000 MNIST images in {} s; FLOAT mean {} vs DOUBLE mean {}", String.format("%.3f", seconds),
                train.features().meanNumber(), asDouble.meanNumber());
        assertTrue(seconds < 30, "reading 70000 images took " + seconds + " s (about 1 s on two cores)");

        assertEquals(60000, train.size());
        assertEquals(784, train.numFeatures());
        assertArrayEquals(new int[] {5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949}, train.labelHistogram());
        assertEquals(10000, mnist.test().size());
        assertArrayEquals(new int[] {980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009}, mnist.test().labelHistogram());
        assertArrayEquals(mnist.test().labels(), testStd.labels());
        assertArrayEquals(train.labels(), MnistReader.readLabels(RealData.file(DatasetCatalog.MNIST_TRAIN_LABELS)));

        // The normalisation constants are the training pixels' mean and standard deviation on [0, 1].
        // Statistics in double: ND4J's FLOAT reduction over 47M values is off by ~4e-4.
        assertEquals(PixelScaling.MNIST_MEAN, asDouble.meanNumber().doubleValue(), 1e-4);
        assertEquals(PixelScaling.MNIST_STD, asDouble.stdNumber().doubleValue(), 1e-4);
        assertEquals(0.0, asDouble.minNumber().doubleValue(), 0);
        assertEquals(1.0, asDouble.maxNumber().doubleValue(), 0);
        INDArray expectedStd = mnist.test().features().sub(PixelScaling.MNIST_MEAN).div(PixelScaling.MNIST_STD);
        assertTrue(expectedStd.equalsWithEps(testStd.features(), 1e-5));
    }
}
