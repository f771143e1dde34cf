package org.dpdl4j.data.catalog;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dpdl4j.data.io.DataFiles;
import org.dpdl4j.data.mnist.IdxHeader;

/** Counts the rows of a data file without parsing its values. */
public final class RowCounter {
    private RowCounter() {
    }

    /**
     * The number of rows (examples) in the file.
     *
     * @throws IOException when the file cannot be read, is damaged, or is bzip2 (not readable here)
     */
    public static long count(Path file, RowCounting counting) throws IOException {
        if (isBzip2(file)) {
            throw new IOException(file + " is bzip2-compressed, which dpdl4j does not read; decompress it with "
                    + "'bunzip2 -k' (or recompress it with gzip) and keep that file in its place");
        }
        return switch (counting) {
            case IDX_ITEMS -> IdxHeader.readAny(file).count();
            case TEXT_LINES -> nonEmptyLines(file);
            case CSV_WITH_HEADER -> Math.max(0, nonEmptyLines(file) - 1);
        };
    }

    private static long nonEmptyLines(Path file) throws IOException {
        long n = 0;
        try (BufferedReader in = DataFiles.openText(file)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (!line.isBlank()) {
                    n++;
                }
            }
        }
        return n;
    }

    private static boolean isBzip2(Path file) throws IOException {
        DataFiles.requireRegularFile(file);
        try (InputStream in = Files.newInputStream(file)) {
            return in.read() == 'B' && in.read() == 'Z' && in.read() == 'h';
        }
    }
}
