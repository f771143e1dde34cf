package org.dpdl4j.data.mnist;

import static org.dpdl4j.data.TestFiles.idxImages;
import static org.dpdl4j.data.TestFiles.idxLabels;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.MalformedDataException;
import org.dpdl4j.data.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MnistReaderTest {
    private static final int N = 3;

    @TempDir
    Path dir;

    private static byte[] pixels(int n) {
        byte[] p = new byte[n * 784];
        for (int i = 0; i < p.length; i++) {
            p[i] = (byte) (i * 7 % 256);
        }
        return p;
    }

    private Path images(String name, byte[] body) throws IOException {
        return TestFiles.bytes(dir, name, body);
    }

    private Path goodImages(String name) throws IOException {
        return images(name, idxImages(IdxHeader.IMAGES_MAGIC, N, 28, 28, pixels(N)));
    }

    private Path goodLabels(String name) throws IOException {
        return TestFiles.bytes(dir, name, idxLabels(IdxHeader.LABELS_MAGIC, N, new byte[] {3, 0, 9}));
    }

    private MalformedDataException fails(Path images, Path labels) {
        return assertThrows(MalformedDataException.class, () -> MnistReader.read(images, labels, PixelScaling.RAW));
    }

    private static void assertMentions(Exception e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "message lacks '" + part + "': " + e.getMessage());
        }
    }

    @Test
    void readsGzipAndRawIdentically() throws IOException {
        LabeledData gz = MnistReader.read(goodImages("i.gz"), goodLabels("l.gz"), PixelScaling.RAW);
        LabeledData raw = MnistReader.read(goodImages("i.raw"), goodLabels("l.raw"), PixelScaling.RAW);
        assertEquals(N, gz.size());
        assertEquals(784, gz.numFeatures());
        assertEquals(10, gz.numClasses());
        assertArrayEquals(new int[] {3, 0, 9}, gz.labels());
        assertEquals(gz.features(), raw.features());
        byte[] p = pixels(N);
        float[] read = gz.features().data().asFloat();
        for (int i = 0; i < p.length; i++) {
            assertEquals(p[i] & 0xFF, read[i], "pixel " + i);
        }
        assertEquals("i.gz", gz.name());
    }

    @Test
    void pixelScalings() throws IOException {
        LabeledData unit = MnistReader.read(goodImages("i.gz"), goodLabels("l.gz"), PixelScaling.UNIT_INTERVAL);
        LabeledData std = MnistReader.read(goodImages("i.gz"), goodLabels("l.gz"), PixelScaling.STANDARDIZED);
        byte[] p = pixels(N);
        for (int i : new int[] {0, 1, 37, 783, 2351}) {
            int v = p[i] & 0xFF;
            assertEquals((float) (v / 255.0), unit.features().getFloat(i / 784, i % 784));
            assertEquals((float) ((v / 255.0 - 0.1307) / 0.3081), std.features().getFloat(i / 784, i % 784));
        }
        assertEquals(-0.1307 / 0.3081, PixelScaling.STANDARDIZED.apply(0), 1e-15);
        assertEquals(1.0, PixelScaling.UNIT_INTERVAL.apply(255), 0);
    }

    @Test
    void wrongImageMagic() throws IOException {
        Path bad = images("bad.gz", idxImages(2052, N, 28, 28, pixels(N)));
        assertMentions(fails(bad, goodLabels("l.gz")), bad.toString(), "byte offset 0", "magic number is 2052", "2051");
    }

    @Test
    void swappedFilesAreDiagnosed() throws IOException {
        Path labels = goodLabels("l.gz");
        Path images = goodImages("i.gz");
        assertMentions(fails(labels, images), "magic number is 2049", "swapped");
    }

    @Test
    void wrongLabelMagic() throws IOException {
        Path bad = TestFiles.bytes(dir, "l.gz", idxLabels(0x0801 + 0x100, N, new byte[] {1, 2, 3}));
        assertMentions(fails(goodImages("i.gz"), bad), bad.toString(), "2049");
    }

    @Test
    void imageLabelCountMismatch() throws IOException {
        Path labels = TestFiles.bytes(dir, "l.gz", idxLabels(IdxHeader.LABELS_MAGIC, 2, new byte[] {1, 2}));
        assertMentions(fails(goodImages("i.gz"), labels), "declares 3 images", "declares 2 labels", "Fix: ");
    }

    @Test
    void trailingBytesAfterLastImage() throws IOException {
        byte[] body = TestFiles.concat(idxImages(IdxHeader.IMAGES_MAGIC, N, 28, 28, pixels(N)), new byte[] {1, 2, 3, 4, 5});
        Path bad = images("trailing.gz", body);
        assertMentions(fails(bad, goodLabels("l.gz")), bad.toString(), "5 byte(s) follow", "byte offset " + (16 + N * 784));
    }

    @Test
    void trailingBytesAfterLastLabel() throws IOException {
        Path bad = TestFiles.bytes(dir, "l.raw", TestFiles.concat(idxLabels(IdxHeader.LABELS_MAGIC, N,
                new byte[] {1, 2, 3}), new byte[] {0}));
        assertMentions(fails(goodImages("i.raw"), bad), "1 byte(s) follow", "labels");
    }

    @Test
    void truncatedContent() throws IOException {
        byte[] full = idxImages(IdxHeader.IMAGES_MAGIC, N, 28, 28, pixels(N));
        Path bad = images("short.raw", Arrays.copyOf(full, full.length - 100));
        assertMentions(fails(bad, goodLabels("l.gz")), "truncated", "byte offset " + (full.length - 100),
                "need " + full.length + " bytes");
    }

    @Test
    void truncatedHeader() throws IOException {
        Path bad = images("tiny.raw", new byte[] {0, 0, 8, 3, 0, 0});
        assertMentions(fails(bad, goodLabels("l.gz")), "ends inside the IDX header", "byte offset 4");
    }

    @Test
    void truncatedGzipFile() throws IOException {
        byte[] gz = TestFiles.gzip(idxImages(IdxHeader.IMAGES_MAGIC, 50, 28, 28, pixels(50)));
        Path bad = dir.resolve("cut.gz");
        Files.write(bad, Arrays.copyOf(gz, gz.length - 40));
        Path labels = TestFiles.bytes(dir, "l50.gz", idxLabels(IdxHeader.LABELS_MAGIC, 50, new byte[50]));
        assertMentions(fails(bad, labels), bad.toString(), "truncated");
    }

    @Test
    void wrongImageSize() throws IOException {
        Path bad = images("small.gz", idxImages(IdxHeader.IMAGES_MAGIC, 1, 14, 56, new byte[784]));
        assertMentions(fails(bad, TestFiles.bytes(dir, "one.gz", idxLabels(IdxHeader.LABELS_MAGIC, 1, new byte[] {1}))),
                "14 x 56", "28 x 28", "byte offset 8");
    }

    @Test
    void labelOutOfRange() throws IOException {
        Path bad = TestFiles.bytes(dir, "l.gz", idxLabels(IdxHeader.LABELS_MAGIC, N, new byte[] {1, 10, 3}));
        assertMentions(fails(goodImages("i.gz"), bad), "label 10 of item 1", "byte offset 9");
    }

    @Test
    void idxHeaderOfAnyFile() throws IOException {
        assertEquals(N, IdxHeader.readAny(goodImages("i.gz")).count());
        assertEquals(N, IdxHeader.readAny(goodLabels("l.gz")).count());
        assertArrayEquals(new int[] {N, 28, 28}, IdxHeader.readAny(goodImages("j.gz")).dims());
        Path text = TestFiles.text(dir, "t.txt", "hello world");
        assertThrows(MalformedDataException.class, () -> IdxHeader.readAny(text));
    }
}
