package org.dpdl4j.data;

import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.zip.GZIPOutputStream;

/** Writes small synthetic data files for tests. */
public final class TestFiles {
    private TestFiles() {
    }

    /** The bytes gzip-compressed. */
    public static byte[] gzip(byte[] content) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(bytes)) {
            out.write(content);
        }
        return bytes.toByteArray();
    }

    /** Writes text (ASCII) to dir/name, gzip-compressed when the name ends with .gz. */
    public static Path text(Path dir, String name, String content) throws IOException {
        return bytes(dir, name, content.getBytes(StandardCharsets.US_ASCII));
    }

    /** Writes bytes to dir/name, gzip-compressed when the name ends with .gz. */
    public static Path bytes(Path dir, String name, byte[] content) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.write(p, name.endsWith(".gz") ? gzip(content) : content);
        return p;
    }

    /**
     * A file whose read permission is removed, or a skipped test where permissions are not enforced
     * (as root, or on a file system without POSIX permissions).
     */
    public static Path unreadable(Path dir, String name) throws IOException {
        Path p = text(dir, name, "1,2\n");
        assumeTrue(p.getFileSystem().supportedFileAttributeViews().contains("posix"),
                "this file system has no POSIX permissions");
        Files.setPosixFilePermissions(p, Set.of(PosixFilePermission.OWNER_WRITE));
        assumeFalse(Files.isReadable(p), "file permissions are not enforced for this user (root?)");
        return p;
    }

    /** An IDX images file body: magic, count, rows, cols, then the pixels. */
    public static byte[] idxImages(int magic, int count, int rows, int cols, byte[] pixels) {
        ByteBuffer b = ByteBuffer.allocate(16 + pixels.length);
        b.putInt(magic).putInt(count).putInt(rows).putInt(cols).put(pixels);
        return b.array();
    }

    /** An IDX labels file body: magic, count, then the labels. */
    public static byte[] idxLabels(int magic, int count, byte[] labels) {
        ByteBuffer b = ByteBuffer.allocate(8 + labels.length);
        b.putInt(magic).putInt(count).put(labels);
        return b.array();
    }

    /** The bytes with extra bytes appended. */
    public static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
