package org.dpdl4j.data.mnist;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import org.dpdl4j.data.MalformedDataException;
import org.dpdl4j.data.io.DataFiles;

/**
 * The header of an IDX file: a big-endian magic number whose low byte is the number of dimensions
 * (and whose third byte, 0x08, says "unsigned byte"), followed by one 32-bit size per dimension.
 *
 * @param magic the magic number: 2051 for MNIST images (3 dimensions), 2049 for labels (1 dimension)
 * @param dims  the sizes of the dimensions, the first being the number of items
 */
public record IdxHeader(int magic, int[] dims) {
    /** Magic number of an unsigned-byte IDX file with 3 dimensions (images). */
    public static final int IMAGES_MAGIC = 0x00000803;
    /** Magic number of an unsigned-byte IDX file with 1 dimension (labels). */
    public static final int LABELS_MAGIC = 0x00000801;

    public IdxHeader {
        dims = dims.clone();
    }

    /** The number of items (the first dimension). */
    public int count() {
        return dims[0];
    }

    /** The header length in bytes: 4 for the magic plus 4 per dimension. */
    public int byteLength() {
        return 4 + 4 * dims.length;
    }

    /** A copy of the dimension sizes. */
    @Override
    public int[] dims() {
        return dims.clone();
    }

    /** Reads and checks the header of an IDX file (gzip or raw) with the expected magic number. */
    public static IdxHeader read(Path file, int expectedMagic) throws IOException {
        try (InputStream in = DataFiles.open(file)) {
            return read(in, file, expectedMagic);
        }
    }

    /**
     * Reads the header of any unsigned-byte IDX file (images, labels or other), for counting items
     * without reading them.
     */
    public static IdxHeader readAny(Path file) throws IOException {
        try (InputStream in = DataFiles.open(file)) {
            DataInputStream data = new DataInputStream(in);
            int magic = readInt(data, file, 0, "magic number");
            int rank = magic & 0xFF;
            if ((magic >>> 8) != 0x08 || rank < 1 || rank > 4) {
                throw MalformedDataException.atByte(file, 0, "the magic number " + magic + " (0x"
                        + Integer.toHexString(magic) + ") is not that of an unsigned-byte IDX file (0x0000080N)",
                        "pass an IDX file such as MNIST's");
            }
            return readDims(data, file, magic);
        }
    }

    /** Reads and checks the header at the start of the stream, leaving the stream after it. */
    static IdxHeader read(InputStream in, Path file, int expectedMagic) throws IOException {
        DataInputStream data = new DataInputStream(in);
        int magic = readInt(data, file, 0, "magic number");
        if (magic != expectedMagic) {
            throw MalformedDataException.atByte(file, 0, "the IDX magic number is " + magic + " (0x"
                    + Integer.toHexString(magic) + ") but a " + kind(expectedMagic) + " file must start with "
                    + expectedMagic + " (0x" + Integer.toHexString(expectedMagic) + ")" + swapHint(magic, expectedMagic),
                    "pass an MNIST " + kind(expectedMagic) + " file (IDX format, e.g. "
                            + (expectedMagic == IMAGES_MAGIC ? "train-images-idx3-ubyte.gz" : "train-labels-idx1-ubyte.gz")
                            + ")");
        }
        return readDims(data, file, magic);
    }

    private static IdxHeader readDims(DataInputStream data, Path file, int magic) throws IOException {
        int rank = magic & 0xFF;
        int[] dims = new int[rank];
        for (int i = 0; i < rank; i++) {
            long offset = 4L + 4L * i;
            dims[i] = readInt(data, file, offset, "size of dimension " + i);
            if (dims[i] < 0) {
                throw MalformedDataException.atByte(file, offset, "dimension " + i + " has negative size " + dims[i],
                        "the header is damaged; replace the file with a good copy");
            }
        }
        return new IdxHeader(magic, dims);
    }

    private static int readInt(DataInputStream in, Path file, long offset, String what) throws IOException {
        try {
            return in.readInt();
        } catch (EOFException e) {
            throw MalformedDataException.atByte(file, offset, "the file ends inside the IDX header, where the "
                    + what + " should be", "the file is truncated or not an IDX file; replace it with a good copy");
        }
    }

    private static String kind(int magic) {
        return magic == IMAGES_MAGIC ? "images" : magic == LABELS_MAGIC ? "labels" : "IDX";
    }

    private static String swapHint(int found, int expected) {
        if ((found == IMAGES_MAGIC || found == LABELS_MAGIC) && found != expected) {
            return "; this is a " + kind(found) + " file, so the image and label paths may be swapped";
        }
        return "";
    }

    @Override
    public String toString() {
        return "IdxHeader[magic=" + magic + ", dims=" + Arrays.toString(dims) + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IdxHeader h && h.magic == magic && Arrays.equals(h.dims, dims);
    }

    @Override
    public int hashCode() {
        return 31 * magic + Arrays.hashCode(dims);
    }
}
