package org.dpdl4j.data;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dpdl4j.data.catalog.DataDirectory;

/**
 * Access to the real data sets for the tests of every module; skips the test with a reason when they are not
 * available. The reasons are the same for every test, so that {@link SkippedTestsSummary} counts them on one line.
 */
public final class RealData {
    private RealData() {
    }

    /** The data directory named by DPDL4J_DATA, or a skipped test. */
    public static DataDirectory directory() {
        String env = System.getenv(DataDirectory.ENVIRONMENT_VARIABLE);
        assumeTrue(env != null && !env.isBlank(), "needs the real data sets: the environment variable "
                + DataDirectory.ENVIRONMENT_VARIABLE + " is not set (point it at a data directory; ./dpdl4j datasets fetch NAME"
                + " downloads them)");
        return new DataDirectory(Path.of(env), DataDirectory.Source.ENVIRONMENT);
    }

    /** A file of the data directory, or a skipped test when it is absent. */
    public static Path file(String relativePath) {
        DataDirectory dir = directory();
        Path p = dir.locate(relativePath);
        assumeTrue(Files.isRegularFile(p), "needs the real data sets: " + relativePath + " is not in " + dir.describe());
        return p;
    }
}
