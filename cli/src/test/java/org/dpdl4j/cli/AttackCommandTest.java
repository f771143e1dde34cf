package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpdl4j attack}: outputs, the final lines, and the refusals of unknown choices. */
class AttackCommandTest {

    private static String dataDir() {
        return CommandRun.realDataDir("the attack command");
    }

    @Test
    void analyticAttackOnAFedAvgUpdateEndsWithTheFourLines(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("analytic");
        CommandRun r = CommandRun.of("attack", "analytic", "--algo", "fedavg", "--model", "softmax", "--target-index", "3",
                "--data-dir", dataDir(), "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err() + r.out());
        List<String> last = r.lastLines(4);
        assertTrue(last.get(0).startsWith("mse="), r.out());
        assertTrue(Double.parseDouble(last.get(0).substring(4)) < 1e-8, "analytic inversion is exact: " + last);
        assertTrue(last.get(1).startsWith("psnr="), r.out());
        assertTrue(last.get(2).startsWith("ssim="), r.out());
        assertEquals("label_correct=true", last.get(3));
        for (String file : List.of("grid.png", "result.json", "trace.csv", "config.json")) {
            assertTrue(Files.size(out.resolve(file)) > 0, file);
        }
        JsonNode result = new ObjectMapper().readTree(out.resolve("result.json").toFile());
        assertEquals("fedavg", result.get("provenance").get("protocol").asText());
        assertEquals("3", result.get("provenance").get("details").get("target_index").asText());
        JsonNode config = new ObjectMapper().readTree(out.resolve("config.json").toFile());
        assertEquals("softmax", config.get("config").get("model").asText());
    }

    @Test
    void shortDlgRunOnAReleasedGradientWritesItsTrace(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("dlg");
        CommandRun r = CommandRun.of("attack", "dlg", "--method", "dlg", "--algo", "central", "--model", "softmax", "--target-index", "0",
                "--iterations", "4", "--snapshot-every", "2", "--noise-std", "0.001", "--data-dir", dataDir(),
                "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err() + r.out());
        assertTrue(r.lastLines(4).get(3).matches("label_correct=(true|false)"), r.out());
        List<String> trace = Files.readAllLines(out.resolve("trace.csv"));
        assertEquals(4, trace.size(), "header and iterations 0, 2, 4: " + trace);
        assertTrue(trace.get(3).startsWith("4,"), trace.toString());
    }

    @Test
    void severalReleasesWithRelativeNoiseGiveASummary(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("sweep");
        CommandRun r = CommandRun.of("attack", "analytic", "--algo", "fedavg", "--model", "mlp", "--target-index", "10", "--count", "3",
                "--noise-relative", "0.01", "--data-dir", dataDir(), "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err() + r.out());
        assertTrue(r.out().contains("3 releases:"), r.out());
        List<String> summary = Files.readAllLines(out.resolve("summary.csv"));
        assertEquals(4, summary.size(), summary.toString());
        int ratioColumn = List.of(summary.get(0).split(",")).indexOf("noise_to_rms");
        for (String row : summary.subList(1, 4)) {
            assertEquals(0.01, Double.parseDouble(row.split(",")[ratioColumn]), 1e-6, row);
        }
        for (String file : List.of("grid-10.png", "grid-11.png", "grid-12.png", "result-12.json")) {
            assertTrue(Files.exists(out.resolve(file)), file);
        }
    }

    @Test
    void unknownChoicesFailWithTheSupportedOnes() {
        CommandRun algo = CommandRun.of("attack", "dlg", "--algo", "decor", "--target-index", "0");
        assertEquals(2, algo.exitCode());
        assertTrue(algo.err().contains("fedavg, central"), algo.err());

        CommandRun observer = CommandRun.of("attack", "dlg", "--algo", "fedavg", "--observer", "neighbour", "--target-index", "0");
        assertEquals(2, observer.exitCode());
        assertTrue(observer.err().contains("supported: server"), observer.err());

        CommandRun dataset = CommandRun.of("attack", "dlg", "--dataset", "cifar10", "--target-index", "0");
        assertEquals(2, dataset.exitCode());
        assertTrue(dataset.err().contains("supported: mnist"), dataset.err());

        CommandRun missing = CommandRun.of("attack");
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().contains("dlg"), missing.err());
    }
}
