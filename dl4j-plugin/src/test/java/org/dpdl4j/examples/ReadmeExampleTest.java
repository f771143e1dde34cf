package org.dpdl4j.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

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
        ReadmeExamples.assertShown(readme, EXAMPLES.resolve(example));
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
        String text = ReadmeExamples.printedBy(() -> DecorExample.main(new String[] {checkpoint.toString()}));
        assertTrue(text.contains("epsilon spent: 4.0000") || text.contains("epsilon spent: 3.99"), text);
        assertTrue(text.contains("kappa") && text.contains("300 x decor round"), text);
        assertTrue(org.dpdl4j.runtime.RunCheckpoint.read(checkpoint).completedSteps() == 200);
    }

    @Test
    void theCnnExampleTrainsACnnAndAGraphWithinTheirBudgetsAndPassesTheOracle() throws Exception {
        String text = ReadmeExamples.printedBy(() -> PrivateCnnExample.main(new String[0]));
        assertTrue(text.contains("CNN: epsilon spent 3.000") || text.contains("CNN: epsilon spent 2.99"), text);
        assertTrue(text.contains("Privacy statement") && text.contains("Comparison[maxNormRelativeError="), text);
    }

    @Test
    void theExampleTrainsWithinItsBudgetAndSavesAModelDl4jLoads(@TempDir Path tmp) throws Exception {
        Path model = tmp.resolve("model.zip");
        String text = ReadmeExamples.printedBy(() -> PrivateMlpExample.main(new String[] {model.toString()}));
        assertTrue((text.contains("epsilon spent: 2.000") || text.contains("epsilon spent: 1.99"))
                && text.contains("Privacy statement"), text);
        assertTrue(ModelSerializer.restoreMultiLayerNetwork(model.toFile()).numParams() > 0);
    }

    @Test
    void theEarlyStoppingExampleStopsPrivatelyAndFeedsTheUi() throws Exception {
        String text = ReadmeExamples.printedBy(() -> PrivateEarlyStoppingExample.main(new String[0]));
        assertTrue(text.contains("EpochTerminationCondition after ") && text.contains("UI records: ")
                && !text.contains("UI records: 0;") && text.contains("covers it for the training examples"), text);
    }
}
