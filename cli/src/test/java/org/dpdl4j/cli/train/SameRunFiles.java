package org.dpdl4j.cli.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.util.ModelSerializer;
import org.dpdl4j.runtime.RunCheckpoint;

/**
 * Asserts that two run directories hold the same run, file by file: byte for byte, except where a file records when
 * or how it was written (the checkpoint's time, the zip entries' times, the command line in config.json), which are
 * compared by what they hold.
 */
final class SameRunFiles {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SameRunFiles() {
    }

    static void assertSameRun(Path expected, Path actual) throws IOException {
        assertEquals(names(expected), names(actual), "the same files");
        for (String name : names(expected)) {
            Path a = expected.resolve(name);
            Path b = actual.resolve(name);
            if (name.equals(RunCheckpoint.FILE_NAME)) {
                assertSameCheckpoint(a, b);
            } else if (name.endsWith(".zip")) {
                assertSameModel(a, b, name);
            } else if (name.equals("config.json")) {
                // the arguments and the time differ by design; the run's configuration does not
                assertEquals(JSON.readTree(a.toFile()).get("config"), JSON.readTree(b.toFile()).get("config"), name);
            } else {
                assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b), name + " differs from " + a);
            }
        }
    }

    static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static void assertSameCheckpoint(Path expected, Path actual) {
        RunCheckpoint.Saved a = RunCheckpoint.read(expected);
        RunCheckpoint.Saved b = RunCheckpoint.read(actual);
        assertEquals(a.completedSteps(), b.completedSteps());
        assertEquals(a.plannedSteps(), b.plannedSteps());
        assertEquals(a.settings(), b.settings());
        assertEquals(a.ledger().orElseThrow().ledger().entries(), b.ledger().orElseThrow().ledger().entries());
        assertEquals(a.state().numbers(), b.state().numbers());
        assertEquals(a.notes(), b.notes());
        assertEquals(a.state().arrays().keySet(), b.state().arrays().keySet());
        for (String name : a.state().arrays().keySet()) {
            assertEquals(a.state().array(name), b.state().array(name), name);
        }
    }

    private static void assertSameModel(Path expected, Path actual, String name) throws IOException {
        MultiLayerNetwork a = ModelSerializer.restoreMultiLayerNetwork(expected.toFile(), false);
        MultiLayerNetwork b = ModelSerializer.restoreMultiLayerNetwork(actual.toFile(), false);
        assertEquals(a.getLayerWiseConfigurations().toJson(), b.getLayerWiseConfigurations().toJson(), name);
        assertEquals(a.params(), b.params(), name + ": the same parameters");
    }
}
