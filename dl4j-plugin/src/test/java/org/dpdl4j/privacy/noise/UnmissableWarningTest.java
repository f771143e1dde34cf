package org.dpdl4j.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLoggerFactory;

/** The seeded-noise warning reaches a library user whose class path has no logging provider. */
class UnmissableWarningTest {

    private static String printed(org.slf4j.ILoggerFactory logging) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream fallback = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            UnmissableWarning.warn(logging.getLogger("test"), "seeded noise is not secure", logging, fallback);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void withoutALoggingProviderTheWarningGoesToStandardError() {
        String printed = printed(new NOPLoggerFactory());
        assertTrue(printed.contains("WARNING") && printed.contains("seeded noise is not secure"), printed);
    }

    @Test
    void withALoggingProviderTheWarningIsLeftToIt() {
        assertEquals("", printed(LoggerFactory.getILoggerFactory()), "the test class path binds logback");
    }
}
