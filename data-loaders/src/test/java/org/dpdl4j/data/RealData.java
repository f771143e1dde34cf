package org.dpdl4j.data;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dpdl4j.data.catalog.DataDirectory;

/** Access to the real data sets for tests; skips the test with a reason when they are not available. */
public final class RealData {
    private RealData() {
    }

    /** The data directory named by DPDL4J_DATA, or a skipped test. */
    public static DataDirectory directory() {
        String env = System.getenv(DataDirectory.ENVIRONMENT_VARIABLE);
        assumeTrue(env != null && !env.isBlank(), "real-data test skipped: the environment variable "
                + DataDirectory.ENVIRONMENT_VARIABLE + " is not set (point it at the data directory to run it)");
        return new DataDirectory(Path.of(env), DataDirectory.Source.ENVIRONMENT);
    }

    /** A file of the data directory, or a skipped test when it is absent. */
    public static Path file(String relativePath) {
        DataDirectory dir = directory();
        Path p = dir.locate(relativePath);
        assumeTrue(Files.isRegularFile(p), "real-data test skipped: " + relativePath + " is not in "
                + dir.describe());
        return p;
    }
}
