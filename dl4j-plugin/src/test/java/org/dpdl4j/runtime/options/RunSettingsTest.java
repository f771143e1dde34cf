package org.dpdl4j.runtime.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.junit.jupiter.api.Test;

/** Settings as a run records them, compares them on resume, and refuses impossible values. */
class RunSettingsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static RunSettings.Saved reparse(RunSettings settings) throws Exception {
        return RunSettings.Saved.fromJson(JSON.readTree(JSON.writeValueAsString(settings.toJson())));
    }

    @Test
    void settingsRoundTripThroughJsonWithTheirResumeRules() throws Exception {
        RunSettings s = RunSettings.empty().with(RunOptions.SEED, -7L).with(RunOptions.ROUNDS, 200L)
                .with(RunOptions.LEARNING_RATE, 0.1 + 0.2).with(RunOptions.NOISE, org.dpdl4j.privacy.noise.NoiseKind.SEEDED).withText(RunOptions.DELTA, " 1e-5 ");
        RunSettings.Saved saved = reparse(s);
        assertEquals(s.saved(), saved);
        assertEquals(List.of("seed", "rounds", "lr", "noise", "delta"), List.copyOf(saved.values().keySet()), "in the order made");
        assertEquals(ResumeRule.IDENTITY, saved.rules().get("seed"));
        assertEquals(ResumeRule.MECHANISM, saved.rules().get("rounds"));
        assertEquals(ResumeRule.FREE, saved.rules().get("lr"));
        assertEquals(0.1 + 0.2, RunOptions.LEARNING_RATE.parse(saved.values().get("lr")), 0.0, "the canonical text is exact");
        assertEquals(1e-5, s.get(RunOptions.DELTA).orElseThrow(), 0.0);
        assertEquals(List.of(), s.changesFrom(saved), "no change from itself");
    }

    @Test
    void changesAreFoundWithTheStricterRuleAndOneSidedSettingsCount() throws Exception {
        RunSettings before = RunSettings.empty().with(RunOptions.SEED, 1L).with(RunOptions.ROUNDS, 200L)
                .with(RunOptions.LEARNING_RATE, 0.5).with(RunOptions.CLIP, 1.0).with(RunOptions.EPSILON, 5.0);
        RunSettings after = before.with(RunOptions.SEED, 2L).with(RunOptions.ROUNDS, 400L).with(RunOptions.LEARNING_RATE, 0.25)
                .without(RunOptions.CLIP).with(RunOptions.EPSILON_BUDGET, 7.0);
        List<SettingChange> changes = after.changesFrom(reparse(before));
        assertEquals(List.of(
                new SettingChange("seed", "1", "2", ResumeRule.IDENTITY),
                new SettingChange("rounds", "200", "400", ResumeRule.MECHANISM),
                new SettingChange("lr", "0.5", "0.25", ResumeRule.FREE),
                new SettingChange("clip", "1", null, ResumeRule.MECHANISM),
                new SettingChange("epsilon-budget", null, "7", ResumeRule.FREE)), changes);
        assertEquals("rounds: 200 -> 400", changes.get(1).describe());
        assertEquals("clip: 1 -> (not set)", changes.get(3).describe());
        assertEquals("epsilon-budget: (not set) -> 7", changes.get(4).describe());

        // A saved rule stricter than the current declaration wins (an option that once defined the state still does).
        ObjectNode json = before.toJson();
        ((ObjectNode) json.get("lr")).put("resume", "IDENTITY");
        SettingChange lr = after.changesFrom(RunSettings.Saved.fromJson(json)).get(2);
        assertEquals(ResumeRule.IDENTITY, lr.rule());
    }

    @Test
    void malformedSavedSettingsAreRefusedNamingTheSetting() throws Exception {
        ObjectNode json = RunSettings.empty().with(RunOptions.ROUNDS, 3L).with(RunOptions.CLIP, 2.0).toJson();
        ((ObjectNode) json.get("clip")).put("resume", "SOMETIMES");
        String rule = assertThrows(IllegalArgumentException.class, () -> RunSettings.Saved.fromJson(json)).getMessage();
        assertTrue(rule.contains("'clip'") && rule.contains("SOMETIMES"), rule);
        ((ObjectNode) json.get("clip")).put("resume", "FREE").remove("value");
        String value = assertThrows(IllegalArgumentException.class, () -> RunSettings.Saved.fromJson(json)).getMessage();
        assertTrue(value.contains("'clip'") && value.contains("value"), value);
        String array = assertThrows(IllegalArgumentException.class, () -> RunSettings.Saved.fromJson(JSON.createArrayNode())).getMessage();
        assertTrue(array.contains("not a JSON object"), array);
    }

    /** Asserts that the text is refused, with a message naming the option, the text and the range. */
    private static void assertRefused(RunOption<?> option, String text) {
        InvalidOptionException e = assertThrows(InvalidOptionException.class, () -> option.parse(text), option + " " + text);
        assertEquals(option.flag(), e.option());
        String m = e.getMessage();
        assertTrue(m.contains(option.flag()) && m.contains(text.trim()) && m.contains(option.type().range()), m);
    }

    @Test
    void everyNumericOptionRefusesNonFiniteOverflowingAndOutOfRangeValues() {
        List<RunOption<?>> options = ProtocolRegistry.standard().options();
        int reals = 0;
        for (RunOption<?> option : options) {
            if (option.type().type() == Double.class) {
                reals++;
                for (String text : List.of("NaN", "Infinity", "-Infinity", "1e39", "1e400", "-1e39", "3f", "0x1p3d", "one")) {
                    assertRefused(option, text);
                }
            } else if (option.type().type() == Long.class) {
                for (String text : List.of("1.5", "1e3", "9223372036854775808", "NaN", "")) {
                    assertRefused(option, text);
                }
            }
        }
        assertTrue(reals >= 10, "the registry's real-valued options: " + reals);
        assertRefused(RunOptions.EPSILON, "0");
        assertRefused(RunOptions.EPSILON, "-1");
        assertRefused(RunOptions.DELTA, "1");
        assertRefused(RunOptions.DELTA, "0");
        assertRefused(RunOptions.WEIGHT_DECAY, "-0.1");
        assertRefused(RunOptions.ROUNDS, "0");
        assertRefused(RunOptions.ROUNDS, "2147483648");
        assertRefused(RunOptions.BATCH_SIZE, "-1");
        assertRefused(RunOptions.SAMPLING, "sometimes");
        assertRefused(RunOptions.PARTITION, "  ");
        // The edges of the ranges are accepted, and values are trimmed.
        assertEquals(0.0, RunOptions.WEIGHT_DECAY.parse("0"), 0.0);
        assertEquals(1e6, RunOptions.EPSILON.parse(" 1e6 "), 0.0);
        assertEquals(Integer.MAX_VALUE, RunOptions.ROUNDS.parse("2147483647"));
        assertEquals("fixed", RunOptions.SAMPLING.parse("FIXED"));
    }

    @Test
    void aRequiredSettingNamesTheOptionAndWhyItIsNeeded() {
        InvalidOptionException e = assertThrows(InvalidOptionException.class,
                () -> RunSettings.empty().with(RunOptions.ROUNDS, 3L).require(RunOptions.CLIP, "decor needs a clipping norm"));
        assertEquals("--clip", e.option());
        assertTrue(e.getMessage().contains("decor needs a clipping norm") && e.getMessage().contains("--clip C"), e.getMessage());
        assertEquals(3L, RunSettings.empty().with(RunOptions.ROUNDS, 3L).require(RunOptions.ROUNDS, "needed"));
    }

    @Test
    void twoDeclarationsOfOneNameDoNotMix() {
        RunOption<Double> other = RunOption.of("clip", "C", ValueType.realAbove(0, 1), ResumeRule.FREE, "another clip");
        RunSettings s = RunSettings.empty().with(RunOptions.CLIP, 0.5);
        String with = assertThrows(IllegalArgumentException.class, () -> s.with(other, 0.5)).getMessage();
        assertTrue(with.contains("--clip"), with);
        String get = assertThrows(IllegalArgumentException.class, () -> s.get(other)).getMessage();
        assertTrue(get.contains("--clip"), get);
        String name = assertThrows(IllegalArgumentException.class,
                () -> RunOption.of("Clip_Norm", "C", ValueType.realAbove(0, 1), ResumeRule.FREE, "bad")).getMessage();
        assertTrue(name.contains("Clip_Norm"), name);
    }
}
