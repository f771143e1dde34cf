package org.dpdl4j.data.mnist;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Objects;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.MalformedDataException;
import org.dpdl4j.data.io.DataFiles;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a pair of MNIST IDX files (images and labels, each gzip or raw) into a {@link LabeledData}
 * with 784 features per image (row-major 28 x 28) and 10 classes.
 *
 * <p>Every structural promise of the format is checked: the magic numbers (2051, 2049), 28 x 28
 * images, equal image and label counts, labels 0..9, and an exact content length, so a truncated
 * file or one with bytes after the last item is rejected rather than read partially.
 * The pixels are read with one bulk read and converted through a 256-entry lookup table, then
 * copied into ND4J once; 60,000 images take a fraction of a second.
 */
public final class MnistReader {
    /** Image height. */
    public static final int ROWS = 28;
    /** Image width. */
    public static final int COLUMNS = 28;
    /** Features per image. */
    public static final int PIXELS = ROWS * COLUMNS;
    /** Digits 0..9. */
    public static final int NUM_CLASSES = 10;

    private static final Logger LOG = LoggerFactory.getLogger(MnistReader.class);
    private static final String REPLACE = "replace the file with a good copy (dpdl4j datasets fetch mnist) "
            + "and check its SHA-256 (dpdl4j datasets)";

    private MnistReader() {
    }

    /** Reads images and labels; the data set is named after the images file. */
    public static LabeledData read(Path images, Path labels, PixelScaling scaling) throws IOException {
        return read(images, labels, scaling, images.getFileName().toString());
    }

    /** Reads images and labels into a data set with the given name. */
    public static LabeledData read(Path images, Path labels, PixelScaling scaling, String name) throws IOException {
        Objects.requireNonNull(scaling, "scaling");
        long start = System.nanoTime();
        try (InputStream imageIn = DataFiles.open(images); InputStream labelIn = DataFiles.open(labels)) {
            IdxHeader imageHeader = IdxHeader.read(imageIn, images, IdxHeader.IMAGES_MAGIC);
            int[] dims = imageHeader.dims();
            if (dims[1] != ROWS || dims[2] != COLUMNS) {
                throw MalformedDataException.atByte(images, 8, "the images are " + dims[1] + " x " + dims[2]
                        + " but MNIST images are " + ROWS + " x " + COLUMNS, "pass an MNIST images file");
            }
            IdxHeader labelHeader = IdxHeader.read(labelIn, labels, IdxHeader.LABELS_MAGIC);
            int n = imageHeader.count();
            if (n != labelHeader.count()) {
                throw new MalformedDataException(images + " and " + labels, "IDX headers",
                        "the images file declares " + n + " images but the labels file declares "
                                + labelHeader.count() + " labels",
                        "pair each images file with its own labels file (train-images with train-labels, "
                                + "t10k-images with t10k-labels)", null);
            }
            if (n == 0) {
                throw MalformedDataException.atByte(images, 4, "the header declares 0 images", "pass a non-empty file");
            }
            long pixelBytes = (long) n * PIXELS;
            if (pixelBytes > Integer.MAX_VALUE - 16) {
                throw MalformedDataException.atByte(images, 4, "the header declares " + n
                        + " images, more than one Java array can hold", "split the file into smaller ones");
            }
            byte[] pixels = readExactly(imageIn, images, imageHeader.byteLength(), (int) pixelBytes, n, "images");
            byte[] labelBytes = readExactly(labelIn, labels, labelHeader.byteLength(), n, n, "labels");
            int[] classes = toClasses(labelBytes, labels, labelHeader.byteLength());

            float[] table = scaling.lookupTable();
            float[] values = new float[pixels.length];
            for (int i = 0; i < pixels.length; i++) {
                values[i] = table[pixels[i] & 0xFF];
            }
            INDArray features = Nd4j.create(values, new long[] {n, PIXELS}, DataType.FLOAT);
            LOG.debug("read {} MNIST images from {} in {} ms", n, images, (System.nanoTime() - start) / 1_000_000);
            return new LabeledData(name, features, classes, NUM_CLASSES);
        }
    }

    /** Reads only the labels of an IDX labels file (gzip or raw), checked like {@link #read}. */
    public static int[] readLabels(Path labels) throws IOException {
        try (InputStream in = DataFiles.open(labels)) {
            IdxHeader header = IdxHeader.read(in, labels, IdxHeader.LABELS_MAGIC);
            byte[] bytes = readExactly(in, labels, header.byteLength(), header.count(), header.count(), "labels");
            return toClasses(bytes, labels, header.byteLength());
        }
    }

    private static int[] toClasses(byte[] labelBytes, Path file, int headerLength) throws MalformedDataException {
        int[] classes = new int[labelBytes.length];
        for (int i = 0; i < labelBytes.length; i++) {
            int c = labelBytes[i] & 0xFF;
            if (c >= NUM_CLASSES) {
                throw MalformedDataException.atByte(file, headerLength + (long) i, "label " + c + " of item " + i
                        + " is not a digit 0..9", REPLACE);
            }
            classes[i] = c;
        }
        return classes;
    }

    /**
     * Reads exactly {@code length} bytes of payload, then requires the end of the content: a short
     * payload (truncated file) and bytes after it (trailing garbage) are both errors.
     */
    private static byte[] readExactly(InputStream in, Path file, int headerLength, int length, int items, String what)
            throws IOException {
        byte[] buf = new byte[length];
        int got = in.readNBytes(buf, 0, length);
        long expectedEnd = (long) headerLength + length;
        if (got < length) {
            throw MalformedDataException.atByte(file, headerLength + (long) got, "the content ends here, but the header "
                    + "declares " + items + " " + what + ", which need " + expectedEnd + " bytes (the file is truncated)",
                    REPLACE);
        }
        int next = in.read();
        if (next >= 0) {
            long trailing = 1 + in.transferTo(OutputStream.nullOutputStream());
            throw MalformedDataException.atByte(file, expectedEnd, trailing + " byte(s) follow the last of the "
                    + items + " " + what + " the header declares (the content should end at byte " + expectedEnd + ")",
                    REPLACE);
        }
        return buf;
    }
}
