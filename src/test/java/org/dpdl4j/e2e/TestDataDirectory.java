package org.dpdl4j.e2e;

import java.nio.file.Path;
import org.dpdl4j.data.RealData;

/** The real datasets, from the DPDL4J_DATA environment variable; tests that need them are skipped without it. */
final class TestDataDirectory {
    private TestDataDirectory() {
    }

    /** The data directory holding {@code relativeFile}, or a skipped test (saying why). */
    static Path require(String relativeFile) {
        RealData.file(relativeFile);
        return RealData.directory().path();
    }
}
