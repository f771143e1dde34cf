package org.dpdl4j.runtime.options;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The resolved settings of one run: every option given or defaulted, with its typed value. Immutable. The same
 * object builds the run, is written to its config file and its checkpoint, and is compared with the settings of a
 * resume, so no setting is lost or silently changed between the command line and the engine.
 */
public final class RunSettings {
    private final Map<String, Setting<?>> settings;

    /**
     * One setting.
     *
     * @param option its declaration
     * @param value  its value
     */
    public record Setting<T>(RunOption<T> option, T value) {
        public Setting {
            Objects.requireNonNull(option, "option");
            Objects.requireNonNull(value, "value of " + option.flag());
        }

        /** The canonical text of the value. */
        public String text() {
            return option.format(value);
        }
    }

    private RunSettings(Map<String, Setting<?>> settings) {
        this.settings = Collections.unmodifiableMap(settings);
    }

    /** No settings. */
    public static RunSettings empty() {
        return new RunSettings(new LinkedHashMap<>());
    }

    /** These settings with one more (or one replaced). */
    public <T> RunSettings with(RunOption<T> option, T value) {
        Map<String, Setting<?>> copy = new LinkedHashMap<>(settings);
        Setting<?> previous = copy.get(option.name());
        if (previous != null && !previous.option().equals(option)) {
            throw new IllegalArgumentException("two different options are named " + option.flag());
        }
        copy.put(option.name(), new Setting<>(option, value));
        return new RunSettings(copy);
    }

    /** These settings with one more given as text (parsed and checked). */
    public <T> RunSettings withText(RunOption<T> option, String text) {
        return with(option, option.parse(text));
    }

    /** These settings with {@code option} set to {@code value} unless it is already set. */
    public <T> RunSettings withDefault(RunOption<T> option, T value) {
        return has(option) ? this : with(option, value);
    }

    /** These settings without the option. */
    public RunSettings without(RunOption<?> option) {
        Map<String, Setting<?>> copy = new LinkedHashMap<>(settings);
        copy.remove(option.name());
        return new RunSettings(copy);
    }

    /** The value, if set. */
    @SuppressWarnings("unchecked")
    public <T> Optional<T> get(RunOption<T> option) {
        Setting<?> s = settings.get(option.name());
        if (s == null) {
            return Optional.empty();
        }
        if (!s.option().equals(option)) {
            throw new IllegalArgumentException("the setting " + option.flag() + " was made by another declaration of the option");
        }
        return Optional.of((T) s.value());
    }

    /** The value, or {@code fallback} when not set. */
    public <T> T get(RunOption<T> option, T fallback) {
        return get(option).orElse(fallback);
    }

    /**
     * The value of a setting the run cannot do without.
     *
     * @param why what needs it, e.g. "decor needs a clipping norm"
     * @throws InvalidOptionException saying that the option is needed and why
     */
    public <T> T require(RunOption<T> option, String why) {
        return get(option).orElseThrow(() -> option.invalid(why + ": give " + option.flag() + " " + option.label()
                + " (" + option.description() + ")"));
    }

    public boolean has(RunOption<?> option) {
        return settings.containsKey(option.name());
    }

    /** The settings in the order they were made. */
    public List<Setting<?>> all() {
        return List.copyOf(settings.values());
    }

    /** Option name to canonical text, in order. */
    public Map<String, String> texts() {
        Map<String, String> out = new LinkedHashMap<>();
        settings.forEach((k, v) -> out.put(k, v.text()));
        return out;
    }

    /** The settings as JSON: {@code {"name": {"value": text, "resume": rule}}}. */
    public ObjectNode toJson() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        settings.forEach((k, v) -> o.putObject(k).put("value", v.text()).put("resume", v.option().resumeRule().name()));
        return o;
    }

    /**
     * The settings of a saved run, as text with the resume rule each had.
     *
     * @param values option name to text
     * @param rules  option name to rule
     */
    public record Saved(Map<String, String> values, Map<String, ResumeRule> rules) {
        public Saved {
            values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
            rules = Collections.unmodifiableMap(new LinkedHashMap<>(rules));
        }

        /**
         * Reads {@link #toJson()}'s form.
         *
         * @throws IllegalArgumentException naming the malformed entry
         */
        public static Saved fromJson(JsonNode o) {
            if (o == null || !o.isObject()) {
                throw new IllegalArgumentException("the saved settings are not a JSON object");
            }
            Map<String, String> values = new LinkedHashMap<>();
            Map<String, ResumeRule> rules = new LinkedHashMap<>();
            o.fields().forEachRemaining(e -> {
                JsonNode value = e.getValue().get("value");
                JsonNode rule = e.getValue().get("resume");
                if (value == null || !value.isTextual() || rule == null || !rule.isTextual()) {
                    throw new IllegalArgumentException("the saved setting '" + e.getKey() + "' lacks its value or resume rule");
                }
                try {
                    rules.put(e.getKey(), ResumeRule.valueOf(rule.textValue()));
                } catch (IllegalArgumentException ex) {
                    throw new IllegalArgumentException("the saved setting '" + e.getKey() + "' has an unknown resume rule " + rule);
                }
                values.put(e.getKey(), value.textValue());
            });
            return new Saved(values, rules);
        }
    }

    /** These settings in saved form. */
    public Saved saved() {
        Map<String, ResumeRule> rules = new LinkedHashMap<>();
        settings.forEach((k, v) -> rules.put(k, v.option().resumeRule()));
        return new Saved(texts(), rules);
    }

    /**
     * What differs from a saved run's settings, in the order of the saved settings then the new ones. A setting
     * present on one side only is a change too. Its rule is the stricter of the two sides' rules.
     */
    public List<SettingChange> changesFrom(Saved saved) {
        Map<String, String> now = texts();
        Set<String> names = new LinkedHashSet<>(saved.values().keySet());
        names.addAll(now.keySet());
        List<SettingChange> out = new ArrayList<>();
        for (String name : names) {
            String before = saved.values().get(name);
            String after = now.get(name);
            if (!Objects.equals(before, after)) {
                ResumeRule a = saved.rules().get(name);
                ResumeRule b = settings.containsKey(name) ? settings.get(name).option().resumeRule() : null;
                out.add(new SettingChange(name, before, after, stricter(a, b)));
            }
        }
        return out;
    }

    private static ResumeRule stricter(ResumeRule a, ResumeRule b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return a.ordinal() >= b.ordinal() ? a : b;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RunSettings other && texts().equals(other.texts());
    }

    @Override
    public int hashCode() {
        return texts().hashCode();
    }

    @Override
    public String toString() {
        return "RunSettings" + texts();
    }
}
