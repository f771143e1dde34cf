package org.dpdl4j.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's Java tuning example is {@link PrivateTuningExample}, word for word: the build compiles and runs it. */
class TuningReadmeExampleTest {

    @Test
    void theReadmeShowsTheTuningExampleAndItReleasesAModelWithinTheTotal() throws Exception {
        ReadmeExamples.assertShown(Path.of("..", "README.md"), Path.of("src/test/java/org/dpdl4j/examples/PrivateTuningExample.java"));
        String text = ReadmeExamples.printedBy(() -> PrivateTuningExample.main(new String[0]));
        assertTrue(text.contains("released: ") && text.contains("(tuning included)")
                && text.contains("Privacy of the released model, tuning included: epsilon = "), text);
        double epsilon = Double.parseDouble(text.replaceFirst("(?s).*epsilon ([0-9.]+) \\(tuning included\\).*", "$1"));
        assertTrue(epsilon <= 4.0, text);
    }
}
