package org.dpdl4j.e2e;

import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;

/** The real datasets, from the DPDL4J_DATA environment variable; tests that need them are skipped without it. */
final class TestDataDirectory {
    private TestDataDirectory() {
    }

    static Path require(String relativeFile) {
        String env = System.getenv("DPDL4J_DATA");
        Assumptions.assumeTrue(env != null && !env.isBlank(), "DPDL4J_DATA is not set; skipping a test that needs the real data");
        Path dir = Path.of(env);
        Assumptions.assumeTrue(Files.isRegularFile(dir.resolve(relativeFile)), "DPDL4J_DATA has no " + relativeFile);
        return dir;
    }
}
