package org.dpdl4j.data.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 digests of files and streams, streamed in fixed-size chunks, as lower-case hex. */
public final class Sha256 {
    private static final int CHUNK = 1 << 16;

    private Sha256() {
    }

    /** The digest of the file's bytes as stored. */
    public static String of(Path file) throws IOException {
        DataFiles.requireRegularFile(file);
        try (InputStream in = Files.newInputStream(file)) {
            return of(in);
        }
    }

    /** The digest of the file's content: decompressed first when the file is gzip. */
    public static String ofContent(Path file) throws IOException {
        try (InputStream in = DataFiles.open(file)) {
            return of(in);
        }
    }

    /** The digest of everything left in the stream (the stream is not closed). */
    public static String of(InputStream in) throws IOException {
        MessageDigest md = newDigest();
        byte[] buf = new byte[CHUNK];
        int n;
        while ((n = in.read(buf)) > 0) {
            md.update(buf, 0, n);
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /** A fresh SHA-256 message digest. */
    public static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-256", e);
        }
    }

    /** Whether the string is 64 lower-case hex digits. */
    public static boolean isHexDigest(String s) {
        return s != null && s.matches("[0-9a-f]{64}");
    }
}
