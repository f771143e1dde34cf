package org.dpdl4j.data.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import org.dpdl4j.data.TestFiles;
import org.dpdl4j.data.io.FileProblem.Facts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileProblemTest {
    @TempDir
    Path dir;

    @Test
    void decisionFromTheFactsAlone() {
        assertEquals(Optional.empty(), FileProblem.classify(new Facts(true, false, false, true, true, false)));
        assertEquals(Optional.of(FileProblem.UNREADABLE), FileProblem.classify(new Facts(true, false, false, true, false, false)));
        assertEquals(Optional.of(FileProblem.MISSING), FileProblem.classify(new Facts(false, true, false, false, false, false)));
        assertEquals(Optional.of(FileProblem.INACCESSIBLE), FileProblem.classify(new Facts(false, false, false, false, false, false)));
        // A directory is reported as one even when it is also unreadable.
        assertEquals(Optional.of(FileProblem.DIRECTORY), FileProblem.classify(new Facts(true, false, true, false, false, false)));
        assertEquals(Optional.of(FileProblem.NOT_A_FILE), FileProblem.classify(new Facts(true, false, false, false, true, false)));
        // Neither present nor known absent because a file stands where a directory above it should be: not a permission problem.
        assertEquals(Optional.of(FileProblem.UNDER_A_FILE), FileProblem.classify(new Facts(false, false, false, false, false, true)));
    }

    @Test
    void exceptionTypeFollowsTheProblem() {
        Path p = dir.resolve("f");
        assertInstanceOf(NoSuchFileException.class, FileProblem.MISSING.exception(p, "m"));
        assertInstanceOf(AccessDeniedException.class, FileProblem.UNREADABLE.exception(p, "m"));
        FileSystemException e = FileProblem.DIRECTORY.exception(p, "is a directory");
        assertEquals(p + ": is a directory", e.getMessage());
    }

    @Test
    void realPaths() throws IOException {
        assertEquals(Optional.of(FileProblem.MISSING), FileProblem.of(dir.resolve("nope")));
        assertEquals(Optional.of(FileProblem.DIRECTORY), FileProblem.of(dir));
        Path file = TestFiles.text(dir, "ok.txt", "x");
        assertEquals(Optional.empty(), FileProblem.of(file));
        assertEquals(Optional.of(FileProblem.UNDER_A_FILE), FileProblem.of(file.resolve("a9a").resolve("a9a.gz")));
    }
}
