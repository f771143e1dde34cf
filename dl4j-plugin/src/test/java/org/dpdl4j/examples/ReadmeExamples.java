package org.dpdl4j.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the README examples' tests share: a README shows an example's source as it is, and what a run prints. */
public final class ReadmeExamples {
    private ReadmeExamples() {
    }

    /** Asserts that {@code readme} shows {@code source} word for word, without its package line, in a java block. */
    public static void assertShown(Path readme, Path source) throws IOException {
        String code = Files.readString(source, StandardCharsets.UTF_8).replaceFirst("(?s)^package [^;]+;\\s*", "");
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        assertTrue(text.contains("```java\n" + code + "```"), readme + " must show " + source + " as it is (without its"
                + " package line) in a ```java block; copy the file's text into it");
    }

    /** What an example prints on standard output while it runs. */
    public static String printedBy(ThrowingRunnable example) throws Exception {
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            example.run();
        } finally {
            System.setOut(stdout);
        }
        return printed.toString(StandardCharsets.UTF_8);
    }

    /** An example's main. */
    @FunctionalInterface
    public interface ThrowingRunnable {
        void run() throws Exception;
    }
}
