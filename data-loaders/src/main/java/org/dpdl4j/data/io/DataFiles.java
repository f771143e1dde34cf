package org.dpdl4j.data.io;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.dpdl4j.data.MalformedDataException;

/**
 * Opens data files for reading, decompressing gzip transparently.
 *
 * <p>Compression is detected from the content (the gzip magic bytes {@code 1f 8b}), not from the
 * file name, so a renamed file still reads. A truncated or corrupt gzip stream surfaces as a
 * {@link MalformedDataException} naming the file, how far decompression got, and what to do,
 * instead of zlib's bare "Unexpected end of ZLIB input stream".
 */
public final class DataFiles {
    private static final int GZIP_BUFFER = 1 << 16;

    private DataFiles() {
    }

    /** Whether the file starts with the gzip magic bytes 1f 8b. */
    public static boolean isGzip(Path file) throws IOException {
        requireRegularFile(file);
        try (InputStream in = Files.newInputStream(file)) {
            return in.read() == 0x1f && in.read() == 0x8b;
        }
    }

    /**
     * The content of the file as a stream: decompressed when the file is gzip, the bytes themselves
     * otherwise. The stream is buffered.
     */
    public static InputStream open(Path file) throws IOException {
        if (isGzip(file)) {
            return new BufferedInputStream(new CheckedGzipStream(file), GZIP_BUFFER);
        }
        return new BufferedInputStream(Files.newInputStream(file), GZIP_BUFFER);
    }

    /**
     * The content of the file as text lines. Decoded as ISO-8859-1, which maps every byte to a
     * character, so a stray non-ASCII byte ends up in a token that the parser rejects with a line
     * number rather than as an undecodable-input error without one.
     */
    public static BufferedReader openText(Path file) throws IOException {
        return new BufferedReader(new InputStreamReader(open(file), StandardCharsets.ISO_8859_1), GZIP_BUFFER);
    }

    /**
     * Returns normally when the path is a regular file this process may read.
     *
     * @throws FileSystemException naming the path, what is wrong (missing, a directory, not readable,
     *                             ...) and the fix; see {@link FileProblem#exception}
     */
    public static void requireRegularFile(Path file) throws FileSystemException {
        Optional<FileProblem> problem = FileProblem.of(file);
        if (problem.isPresent()) {
            FileProblem p = problem.get();
            throw p.exception(file, p.problem() + ". Fix: " + p.fix());
        }
    }

    /** Counts the compressed bytes handed to the inflater, to say how far a broken stream got. */
    private static final class CountingStream extends FilterInputStream {
        private long count;

        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }
    }

    /** A gzip stream whose zlib failures become {@link MalformedDataException}s. */
    private static final class CheckedGzipStream extends InputStream {
        private final Path file;
        private final long fileSize;
        private final CountingStream raw;
        private final GZIPInputStream gzip;
        private long decompressed;

        CheckedGzipStream(Path file) throws IOException {
            this.file = file;
            this.fileSize = Files.size(file);
            this.raw = new CountingStream(Files.newInputStream(file));
            try {
                this.gzip = new GZIPInputStream(raw, GZIP_BUFFER);
            } catch (IOException e) {
                raw.close();
                throw translate(e);
            }
        }

        @Override
        public int read() throws IOException {
            try {
                int b = gzip.read();
                if (b >= 0) {
                    decompressed++;
                }
                return b;
            } catch (IOException e) {
                throw translate(e);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                int n = gzip.read(b, off, len);
                if (n > 0) {
                    decompressed += n;
                }
                return n;
            } catch (IOException e) {
                throw translate(e);
            }
        }

        @Override
        public void close() throws IOException {
            gzip.close();
        }

        private IOException translate(IOException e) {
            String where = "compressed byte offset " + raw.count + " of " + fileSize;
            String fix = "the file is damaged, often by an interrupted or altered download: fetch it again "
                    + "(dpdl4j datasets fetch NAME) or replace it with a good copy, and compare its SHA-256 "
                    + "with the catalog (dpdl4j datasets)";
            if (e instanceof EOFException) {
                return new MalformedDataException(file.toString(), where,
                        "the gzip stream ends early, after " + decompressed
                                + " decompressed bytes, before its end-of-stream marker (the file is truncated)",
                        fix, e);
            }
            if (e instanceof ZipException) {
                return new MalformedDataException(file.toString(), where,
                        "the gzip data is corrupt (zlib: " + e.getMessage() + ") after " + decompressed
                                + " decompressed bytes",
                        fix, e);
            }
            return e;
        }
    }
}
