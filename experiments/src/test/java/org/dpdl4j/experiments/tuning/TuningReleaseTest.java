package org.dpdl4j.experiments.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.dpdl4j.experiments.report.DirectoryLock;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a tuning releases: files that do not reveal K (the tuning bound assumes it secret), the tuner's record apart in
 * operator/, seeded noise said loudly, and no private search over what the guarantee is.
 */
class TuningReleaseTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static TuningResult tune(RunSettings settings, SearchSpace space) throws Exception {
        return new TuningSession(ProtocolRegistry.standard().get("dp-sgd"), settings, List.of(), new PrintWriter(new StringWriter()))
                .run(TuningSessionTest.toy(), space);
    }

    @Test
    void theReleasedFilesHoldNeitherKNorACandidatesPlaceAndTheRecordIsApart(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("secure");
        TuningResult result = tune(TuningSessionTest.settings(run).without(RunOptions.NOISE), TuningSessionTest.space());
        CandidateResult best = result.best().orElseThrow();

        Set<String> top = new TreeSet<>();
        try (Stream<Path> files = Files.list(run)) {
            files.forEach(f -> top.add(f.getFileName().toString()));
        }
        assertEquals(new TreeSet<>(List.of("best.json", "model.zip", "privacy.txt", OperatorRecord.FOLDER, DirectoryLock.FILE_NAME)),
                top, "the top level holds only what is released");
        for (String f : List.of("config.json", "candidates.csv", "summary.md", "tuning.png")) {
            assertTrue(Files.isRegularFile(run.resolve(OperatorRecord.FOLDER).resolve(f)), f);
        }
        assertEquals(result.candidates().size(), JSON.readTree(run.resolve("operator/config.json").toFile()).at("/config/k").asLong(),
                "the operator's config keeps K");

        JsonNode bestJson = JSON.readTree(run.resolve("best.json").toFile());
        List<String> fields = new ArrayList<>();
        bestJson.fieldNames().forEachRemaining(fields::add);
        assertEquals(List.of("algorithm", "validationScore", "testAccuracy", "options", "train", "note", "tuning"), fields);
        // with secure noise every candidate runs with the tuning's seed (1), which its cost was priced with: the seed
        // draws no noise and no sampling, and says nothing of the candidate's place
        assertEquals("1", bestJson.at("/options/seed").asText());
        assertTrue(result.candidates().stream().allMatch(c -> c.seed() == 1), result.candidates().toString());

        String privacy = Files.readString(run.resolve("privacy.txt"));
        assertTrue(privacy.startsWith("Privacy of the released model"), privacy);
        assertTrue(privacy.contains("Not covered: the folder operator/"), privacy);
        assertTrue(privacy.contains("every candidate ran with the tuning's seed, which its cost was priced with"), privacy);
        assertFalse(privacy.contains("WARNING"), privacy);
        assertFalse(privacy.contains("K = "), privacy);
        assertTrue(result.ledger().orElseThrow().secureNoise());
        assertTrue(bestJson.at("/tuning/secureNoise").asBoolean());
    }

    @Test
    void seededNoiseIsSaidFirstAndMarksTheLedgerInsecure(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("seeded");
        TuningResult result = tune(TuningSessionTest.settings(run), TuningSessionTest.space());
        String privacy = Files.readString(run.resolve("privacy.txt"));
        assertTrue(privacy.startsWith("WARNING: SEEDED NOISE, NO GUARANTEE."), privacy);
        assertTrue(privacy.contains("[seeded randomness]") && privacy.contains("not a guarantee"), privacy);
        assertFalse(result.ledger().orElseThrow().secureNoise());
        assertFalse(result.ledger().orElseThrow().ledger().allSecure());
        JsonNode bestJson = JSON.readTree(run.resolve("best.json").toFile());
        assertFalse(bestJson.at("/tuning/secureNoise").asBoolean(true));
        assertTrue(bestJson.at("/tuning/warning").asText().contains("seeded"));
    }

    @Test
    void aPrivateSearchMayNotVaryWhatTheGuaranteeIs(@TempDir Path dir) {
        for (SearchDimension d : List.of(SearchDimension.choice("noise", List.of("seeded")),
                SearchDimension.log("epsilon", 0.5, 2), SearchDimension.log("delta", 1e-6, 1e-4),
                SearchDimension.log("epsilon-budget", 1, 2), SearchDimension.choice("adversary", List.of("curious")))) {
            Path out = dir.resolve(d.option());
            SearchSpace space = new SearchSpace(List.of(SearchDimension.log("lr", 0.05, 2), d));
            InvalidOptionException e = assertThrows(InvalidOptionException.class, () -> tune(TuningSessionTest.settings(out), space));
            assertEquals("--space", e.option());
            assertTrue(e.getMessage().contains("--" + d.option() + " changes the guarantee") && e.getMessage().contains("drop it"),
                    e.getMessage());
            assertFalse(Files.exists(out), "refused before anything is written");
        }
    }

    @Test
    void onPublicDataTheyMayBeSearched(@TempDir Path dir) throws Exception {
        RunSettings s = RunSettings.empty().withText(org.dpdl4j.experiments.workload.WorkloadOptions.DATASET, "a9a")
                .withText(org.dpdl4j.experiments.training.SessionOptions.OUT, dir.resolve("p").toString())
                .withText(RunOptions.CLIP, "1").withText(RunOptions.BATCH_SIZE, "50").withText(RunOptions.LEARNING_RATE, "0.5")
                .withText(TuningOptions.SPACE, "x").withText(TuningOptions.SEARCH, "grid")
                .withText(TuningOptions.TUNING_DATA, "public");
        TuningResult r = tune(s, new SearchSpace(List.of(SearchDimension.choice("epsilon", List.of("1", "4")),
                SearchDimension.choice("noise", List.of("seeded")))));
        assertEquals(2, r.candidates().size());
        assertTrue(Files.readString(dir.resolve("p/privacy.txt")).contains("NOT ACCOUNTED"));
    }
}
