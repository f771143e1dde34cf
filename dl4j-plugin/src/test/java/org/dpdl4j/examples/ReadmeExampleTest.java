package org.dpdl4j.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.deeplearning4j.util.ModelSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The READMEs' examples are this package's {@link PrivateMlpExample}, {@link PrivateCnnExample} and
 * {@link PrivateEarlyStoppingExample} (the project README's "use as a library") and
 * {@link DecorExample} (the library README's), word for word without their package line: so the build compiles
 * them, and these tests run them.
 */
class ReadmeExampleTest {
    private static final Path EXAMPLES = Path.of("src/test/java/org/dpdl4j/examples");

    private static void assertShown(Path readme, String example) throws Exception {
        Path source = EXAMPLES.resolve(example);
        String code = Files.readString(source, StandardCharsets.UTF_8).replaceFirst("(?s)^package [^;]+;\\s*", "");
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        assertTrue(text.contains("```java\n" + code + "```"), readme + " must show " + source + " as it is (without its"
                + " package line) in a ```java block; copy the file's text into it");
    }

    @Test
    void theReadmesShowTheCompiledExamples() throws Exception {
        assertShown(Path.of("..", "README.md"), "PrivateMlpExample.java");
        assertShown(Path.of("..", "README.md"), "PrivateCnnExample.java");
        assertShown(Path.of("..", "README.md"), "PrivateEarlyStoppingExample.java");
        assertShown(Path.of("README.md"), "DecorExample.java");
    }

    @Test
    void theDecorExampleSpendsAtMostItsTargetAndCheckpoints(@TempDir Path tmp) throws Exception {
        Path checkpoint = tmp.resolve("decor.ckpt");
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            DecorExample.main(new String[] {checkpoint.toString()});
        } finally {
            System.setOut(stdout);
        }
        String text = printed.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("epsilon spent: 4.0000") || text.contains("epsilon spent: 3.99"), text);
        assertTrue(text.contains("kappa") && text.contains("300 x decor round"), text);
        assertTrue(org.dpdl4j.runtime.RunCheckpoint.read(checkpoint).completedSteps() == 200);
    }

    @Test
    void theCnnExampleTrainsACnnAndAGraphWithinTheirBudgetsAndPassesTheOracle() {
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            PrivateCnnExample.main(new String[0]);
        } finally {
            System.setOut(stdout);
        }
        String text = printed.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("CNN: epsilon spent 3.000") || text.contains("CNN: epsilon spent 2.99"), text);
        assertTrue(text.contains("Privacy statement") && text.contains("Comparison[maxNormRelativeError="), text);
    }

    @Test
    void theExampleTrainsWithinItsBudgetAndSavesAModelDl4jLoads(@TempDir Path tmp) throws Exception {
        Path model = tmp.resolve("model.zip");
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            PrivateMlpExample.main(new String[] {model.toString()});
        } finally {
            System.setOut(stdout);
        }
        String text = printed.toString(StandardCharsets.UTF_8);
        assertTrue((text.contains("epsilon spent: 2.000") || text.contains("epsilon spent: 1.99"))
                && text.contains("Privacy statement"), text);
        assertTrue(ModelSerializer.restoreMultiLayerNetwork(model.toFile()).numParams() > 0);
    }

    @Test
    void theEarlyStoppingExampleStopsPrivatelyAndFeedsTheUi() {
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            PrivateEarlyStoppingExample.main(new String[0]);
        } finally {
            System.setOut(stdout);
        }
        String text = printed.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("EpochTerminationCondition after ") && text.contains("UI records: ")
                && !text.contains("UI records: 0;") && text.contains("covers it for the training examples"), text);
    }
}
