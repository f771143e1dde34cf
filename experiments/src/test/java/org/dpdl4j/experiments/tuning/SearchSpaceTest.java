package org.dpdl4j.experiments.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.deeplearning4j.arbiter.optimize.generator.RandomSearchGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SearchSpaceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The value of a one-dimension space at Arbiter's point u. */
    private static String at(SearchDimension d, double u) {
        SearchSpace space = new SearchSpace(List.of(d));
        space.collectLeaves().get(0).setIndices(0);
        return space.getValue(new double[] {u}).get(d.option());
    }

    @Test
    void arbitersUnitIntervalMapsToTheRealValues() {
        SearchDimension lr = SearchDimension.log("lr", 0.01, 1);
        assertEquals("0.01", at(lr, 0));
        assertEquals("1", at(lr, 1));
        assertEquals("0.1", at(lr, 0.5), "the middle of a log range is the geometric mean");
        assertEquals("0.3162", at(lr, 0.75), "4 significant digits of 10^-0.5");
        assertEquals("2.5", at(SearchDimension.uniform("momentum", 0, 10), 0.25));
        SearchDimension epochs = SearchDimension.integer("epochs", 1, 4);
        assertEquals("1", at(epochs, 0));
        assertEquals("2", at(epochs, 0.3));
        assertEquals("4", at(epochs, 0.999));
        SearchDimension batch = SearchDimension.logInteger("batch-size", 32, 1024);
        assertEquals("32", at(batch, 0));
        assertEquals("1024", at(batch, 1), "the top of the range is included");
        assertEquals("181", at(batch, 0.5), "floor(sqrt(32 * 1025))");
        SearchDimension act = SearchDimension.choice("activation", List.of("relu", "tanh", "sigmoid"));
        assertEquals("relu", at(act, 0.1));
        assertEquals("tanh", at(act, 0.5));
        assertEquals("sigmoid", at(act, 0.9));
    }

    @Test
    void arbitersRandomSearchGivesEveryOptionAValueInItsRange() throws Exception {
        SearchSpace space = SearchSpace.of("dp-sgd");
        RandomSearchGenerator generator = new RandomSearchGenerator(space);
        generator.setRngSeed(7);
        for (int i = 0; i < 200; i++) {
            @SuppressWarnings("unchecked")
            Map<String, String> v = (Map<String, String>) generator.getCandidate().getValue();
            assertEquals(space.options(), List.copyOf(v.keySet()));
            double lr = Double.parseDouble(v.get("lr"));
            assertTrue(lr >= 0.03 && lr <= 3, "lr " + lr);
            long batch = Long.parseLong(v.get("batch-size"));
            assertTrue(batch >= 32 && batch <= 1024, "batch " + batch);
            assertTrue(List.of("1", "2", "5").contains(v.get("epochs")));
        }
    }

    @Test
    void everyPresetLoadsAndTheJsonFormRoundTrips() throws Exception {
        for (String preset : SearchSpace.PRESETS) {
            SearchSpace space = SearchSpace.of(preset);
            assertEquals(space.toJson(), SearchSpace.fromJson(space.toJson(), "again").toJson(), preset);
        }
    }

    @Test
    void badSpacesAreRefusedWithTheOptionAndTheFix() throws Exception {
        var e = assertThrows(IllegalArgumentException.class,
                () -> SearchSpace.fromJson(JSON.readTree("{\"lr\": {\"exp\": [1, 2]}}"), "f.json"));
        assertTrue(e.getMessage().contains("'lr'") && e.getMessage().contains("log-integer"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> SearchSpace.fromJson(JSON.readTree("{\"lr\": {\"log\": [0, 1]}}"), "f.json"));
        assertTrue(e.getMessage().contains("> 0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> SearchSpace.fromJson(JSON.readTree("{\"lr\": {\"uniform\": [2, 1]}}"), "f.json"));
        assertTrue(e.getMessage().contains("min <= max"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> SearchSpace.fromJson(JSON.readTree("{\"epochs\": {\"integer\": [1.5, 3]}}"), "f.json"));
        assertTrue(e.getMessage().contains("whole numbers"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SearchSpace.fromJson(JSON.readTree("[]"), "f.json"));
        assertTrue(e.getMessage().startsWith("f.json"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SearchSpace.of("no-such-preset-or-file"));
        assertTrue(e.getMessage().contains("dp-sgd"), e.getMessage());
    }

    /** A file a person wrote: each mistake is named by line and column in plain words, and a duplicate is refused. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            {'lr': {'log': [0.01, 1],}}                          | line 1, column 26 | unexpected '}'
            {`lr`: {'log': [0.01, 1]}}                           | line 1, column 2  | unexpected '`'
            {'lr': {'log': [0.01, NaN]}}                         | line 1           | 'NaN' is not a JSON value
            {'lr': {'log': [0.01, 1]}                            | line 1           | ends before the JSON is complete
            {'lr': {'log': [0.01, 1]}} // a comment              | line 1           | unexpected '/'
            {'lr': {'log': [0.01, 1]}, 'lr': {'log': [0.1, 1]}}  | line 1           | 'lr' is given twice
            {'activation': {'choice': []}}                       | activation       | empty choice list
            """)
    void aBrokenSpaceFileIsExplainedInPlainWords(String json, String where, String problem, @TempDir Path dir) throws Exception {
        // the cases write ' for JSON's double quote, to keep the table readable
        Path file = Files.writeString(dir.resolve("space.json"), json.replace('\'', '"'));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SearchSpace.of(file.toString()));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains(where)
                && e.getMessage().contains(problem), e.getMessage());
        assertFalse(e.getMessage().matches("(?s).*(Feature|ALLOW_|Source: |code \\d+|needs an array).*"), e.getMessage());
    }

    @Test
    void aGridHasEveryCombinationAndThePoolSamplerGivesExactlyK() {
        SearchSpace space = new SearchSpace(List.of(SearchDimension.log("lr", 0.01, 1),
                SearchDimension.choice("activation", List.of("relu", "tanh"))));
        CandidatePool grid = CandidatePool.grid(space, 3);
        assertEquals(6, grid.size());
        assertEquals(3, grid.entries().stream().map(e -> e.values().get("lr")).distinct().count());
        assertTrue(grid.entries().stream().anyMatch(e -> e.values().get("lr").equals("0.1")));
        PoolSampler sampler = new PoolSampler(grid, 1000, new java.util.SplittableRandom(1), new java.util.SplittableRandom(2)::nextLong);
        int[] hits = new int[grid.size()];
        int given = 0;
        while (sampler.hasMoreCandidates()) {
            hits[(Integer) sampler.getCandidate().getDataParameters().get(PoolSampler.POOL_INDEX)]++;
            given++;
        }
        assertEquals(1000, given);
        for (int h : hits) {
            assertTrue(Math.abs(h - 1000 / 6.0) < 5 * Math.sqrt(1000 / 6.0), "uniform draws: " + java.util.Arrays.toString(hits));
        }
        assertEquals(CandidatePool.random(space, 5, 3).entries().stream().map(CandidatePool.Entry::values).toList(),
                CandidatePool.random(space, 5, 3).entries().stream().map(CandidatePool.Entry::values).toList(), "seeded");
    }
}
