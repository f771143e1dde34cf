package org.dpdl4j.data.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.dpdl4j.data.MalformedDataException;
import org.dpdl4j.data.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

class DataFilesTest {
    @TempDir
    Path dir;

    private static byte[] randomText(int lines) {
        StringBuilder s = new StringBuilder();
        Random r = new Random(7);
        for (int i = 0; i < lines; i++) {
            s.append(r.nextInt(2) == 0 ? "+1" : "-1");
            for (int j = 1; j <= 20; j++) {
                s.append(' ').append(j).append(':').append(r.nextDouble());
            }
            s.append('\n');
        }
        return s.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] readAll(Path p) throws IOException {
        try (InputStream in = DataFiles.open(p)) {
            return in.readAllBytes();
        }
    }

    @Test
    void gzipIsDetectedByContentNotName() throws IOException {
        byte[] content = randomText(50);
        Path gz = TestFiles.bytes(dir, "data.gz", content);
        Path plain = TestFiles.bytes(dir, "data.txt", content);
        Path renamed = dir.resolve("gzip-without-suffix");
        Files.copy(gz, renamed);
        assertTrue(DataFiles.isGzip(gz));
        assertFalse(DataFiles.isGzip(plain));
        assertTrue(DataFiles.isGzip(renamed));
        assertArrayEquals(content, readAll(gz));
        assertArrayEquals(content, readAll(plain));
        assertArrayEquals(content, readAll(renamed));
    }

    @Test
    void truncatedGzipNamesFileAndSaysTruncated() throws IOException {
        byte[] gz = TestFiles.gzip(randomText(2000));
        Path p = dir.resolve("cut.gz");
        Files.write(p, Arrays.copyOf(gz, gz.length / 2));
        MalformedDataException e = assertThrows(MalformedDataException.class, () -> readAll(p));
        assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        assertTrue(e.getMessage().contains("compressed byte offset"), e.getMessage());
        assertTrue(e.getMessage().contains("Fix: "), e.getMessage());
    }

    @Test
    void gzipCutInsideItsHeaderIsTruncated() throws IOException {
        Path p = dir.resolve("header-only.gz");
        Files.write(p, new byte[] {0x1f, (byte) 0x8b, 8});
        MalformedDataException e = assertThrows(MalformedDataException.class, () -> readAll(p));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    @Test
    void corruptGzipNamesFileAndSaysCorrupt() throws IOException {
        byte[] gz = TestFiles.gzip(randomText(2000));
        for (int i = gz.length / 3; i < gz.length / 3 + 64; i++) {
            gz[i] = (byte) (gz[i] ^ 0x5A);
        }
        Path p = dir.resolve("bad.gz");
        Files.write(p, gz);
        MalformedDataException e = assertThrows(MalformedDataException.class, () -> readAll(p));
        assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("corrupt"), e.getMessage());
    }

    @Test
    void damagedTrailerIsCorrupt() throws IOException {
        byte[] gz = TestFiles.gzip(randomText(100));
        gz[gz.length - 6] ^= 0x01; // inside the CRC-32 of the trailer
        Path p = dir.resolve("crc.gz");
        Files.write(p, gz);
        MalformedDataException e = assertThrows(MalformedDataException.class, () -> readAll(p));
        assertTrue(e.getMessage().contains("corrupt"), e.getMessage());
    }

    @Test
    void missingFileAndDirectoryAreReported() {
        Path nope = dir.resolve("nope");
        assertMentions(assertThrows(NoSuchFileException.class, () -> DataFiles.open(nope)), nope + ": does not exist",
                "Fix: ");
        assertMentions(assertThrows(FileSystemException.class, () -> DataFiles.open(dir)),
                dir + ": is a directory, not a file", "Fix: ");
        assertMentions(assertThrows(FileSystemException.class, () -> Sha256.of(dir)), "is a directory, not a file");
    }

    @Test
    void fileWithoutReadPermissionIsReported() throws IOException {
        Path p = TestFiles.unreadable(dir, "secret.csv");
        assertMentions(assertThrows(AccessDeniedException.class, () -> DataFiles.open(p)),
                p + ": exists but is not readable (permission denied)", "Fix: ", "read permission");
    }

    private static void assertMentions(Exception e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "message lacks '" + part + "': " + e.getMessage());
        }
    }

    @Test
    void sha256OfKnownVectorsAndOfContent() throws IOException {
        Path abc = TestFiles.bytes(dir, "abc", "abc".getBytes(StandardCharsets.US_ASCII));
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", Sha256.of(abc));
        Path empty = TestFiles.bytes(dir, "empty", new byte[0]);
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", Sha256.of(empty));
        Path abcGz = TestFiles.bytes(dir, "abc.gz", "abc".getBytes(StandardCharsets.US_ASCII));
        assertEquals(Sha256.of(abc), Sha256.ofContent(abcGz));
        assertTrue(Sha256.isHexDigest(Sha256.of(abcGz)));
        assertFalse(Sha256.isHexDigest("ABC"));
    }

    @Test
    void strictDecimalParsing() {
        assertEquals(1.0, Numbers.parseDecimal("+1"));
        assertEquals(-0.5, Numbers.parseDecimal("-0.5"));
        assertEquals(0.03, Numbers.parseDecimal("3e-2"));
        for (String bad : new String[] {"", "abc", "1f", "2d", "0x1p3", "1.2.3", "e", "+-1"}) {
            assertEquals(Numbers.Problem.NOT_A_NUMBER, problemOf(() -> Numbers.parseDecimal(bad)), bad);
            assertEquals(Numbers.Problem.NOT_A_NUMBER, problemOf(() -> Numbers.parseFloat32(bad)), bad);
        }
        for (String bad : new String[] {"NaN", "nan", "-NaN", "Infinity", "+Infinity", "-inf", "INF"}) {
            assertEquals(Numbers.Problem.NOT_FINITE, problemOf(() -> Numbers.parseDecimal(bad)), bad);
            assertEquals(Numbers.Problem.NOT_FINITE, problemOf(() -> Numbers.parseFloat32(bad)), bad);
        }
        assertEquals(Numbers.Problem.OVERFLOWS_DOUBLE, problemOf(() -> Numbers.parseDecimal("-1e999")));
    }

    @Test
    void float32ParsingRejectsOverflowButKeepsUnderflowAndTheLargestFloat() {
        assertEquals(1e38f, Numbers.parseFloat32("1e38"));
        assertEquals(1e39, Numbers.parseDecimal("1e39"));
        for (String bad : new String[] {"1e39", "-1e39", "3.5e38", "1e999"}) {
            assertEquals(Numbers.Problem.OVERFLOWS_FLOAT, problemOf(() -> Numbers.parseFloat32(bad)), bad);
        }
        assertEquals(Float.MAX_VALUE, Numbers.parseFloat32("3.4028235e38"));
        assertEquals(-Float.MAX_VALUE, Numbers.parseFloat32("-3.4028235e38"));
        assertEquals(0f, Numbers.parseFloat32("1e-50"));
        assertEquals(-0f, Numbers.parseFloat32("-1e-50"));
        assertEquals(Float.MIN_VALUE, Numbers.parseFloat32("1.4e-45"));
        // Rounded once from the text: through a double, 1.00000005960464477539062500001 would round to 1.
        assertEquals(Math.nextUp(1f), Numbers.parseFloat32("1.00000005960464477539062500001"));
    }

    private static Numbers.Problem problemOf(Executable parse) {
        return assertThrows(Numbers.InvalidNumberException.class, parse).problem();
    }
}
