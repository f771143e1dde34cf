package org.dpdl4j.attacks;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.mnist.MnistReader;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.models.ImageShape;
import org.nd4j.linalg.api.buffer.DataType;

/** The real MNIST test images from the directory named by DPDL4J_DATA; tests using it are skipped without it. */
public final class MnistTestSet {
    private static final Map<PixelScaling, LabeledData> CACHE = new EnumMap<>(PixelScaling.class);

    private MnistTestSet() {
    }

    /** The 10,000 test images with the given scaling, or a skipped test when DPDL4J_DATA is not set. */
    public static synchronized LabeledData load(PixelScaling scaling) {
        String dir = System.getenv(DataDirectory.ENVIRONMENT_VARIABLE);
        assumeTrue(dir != null && !dir.isBlank(), "skipped: real MNIST needed; set DPDL4J_DATA to the data directory"
                + " holding mnist/t10k-images-idx3-ubyte.gz");
        return CACHE.computeIfAbsent(scaling, s -> {
            DataDirectory data = DataDirectory.of(Path.of(dir));
            try {
                return MnistReader.read(data.require("mnist/t10k-images-idx3-ubyte.gz", "mnist"),
                        data.require("mnist/t10k-labels-idx1-ubyte.gz", "mnist"), s);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read MNIST under " + dir, e);
            }
        });
    }

    /** Ground truth for the given test images. */
    public static GroundTruth truth(LabeledData data, int[] rows, InputNormalization normalization, DataType type) {
        LabeledData subset = data.subset(rows);
        return new GroundTruth(subset.features().castTo(type), subset.labels(), ImageShape.MNIST, normalization);
    }
}
