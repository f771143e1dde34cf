package org.dpdl4j.data.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file-system error that gives only the path is said in words; one that gives a reason keeps it. */
class FileErrorsTest {
    @TempDir
    Path dir;

    @Test
    void aBarePathIsExplainedByWhatWentWrong() throws IOException {
        Path file = Files.writeString(dir.resolve("f"), "x");
        assertEquals(dir.resolve("gone") + " does not exist; check the path",
                FileErrors.describe(new NoSuchFileException(dir.resolve("gone").toString())));
        assertEquals(file + " is a file where a directory is needed; give another path, or move the file away",
                FileErrors.describe(new FileAlreadyExistsException(file.toString())));
        assertEquals(dir + " already exists", FileErrors.describe(new FileAlreadyExistsException(dir.toString())));
        assertEquals(file + ": permission denied; give this user access to it, or use another path",
                FileErrors.describe(new AccessDeniedException(file.toString())));
        // what Files.createDirectories throws for a path that is a file
        IOException real = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> Files.createDirectories(file));
        assertEquals(file + " is a file where a directory is needed; give another path, or move the file away",
                FileErrors.describe(real));
    }

    @Test
    void anExplainedErrorKeepsItsOwnWords() {
        assertEquals("/d/a9a.gz: data set a9a needs it", FileErrors.describe(new NoSuchFileException("/d/a9a.gz", null,
                "data set a9a needs it")));
        assertEquals("disk full", FileErrors.describe(new IOException("disk full")));
    }
}
