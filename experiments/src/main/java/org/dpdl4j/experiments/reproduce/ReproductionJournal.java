package org.dpdl4j.experiments.reproduce;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.dpdl4j.experiments.report.JsonLinesJournal;

/**
 * The parts of a reproduction that writes its tables and plots only at its end (after half an hour or more) that have
 * finished, one JSON line each, forced to disk as each one ends, so that a crash or a kill midway loses at most the part
 * in progress and running the same command again goes on from there. The first line records the settings every part
 * depends on and no part records; a journal is only continued with the same settings. Each part is a JSON object with
 * a {@code key} that tells it apart; numbers in it are best written as Java's shortest round-trip decimals
 * ({@link #number}), so that a resumed reproduction writes what the interrupted one would have. The journal is deleted
 * once the reproduction's files are written.
 */
final class ReproductionJournal implements AutoCloseable {
    static final String FILE = "finished-runs.jsonl";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final Map<String, String> settings;
    private final Map<String, JsonNode> parts;
    /** Whether the file holds no earlier part to keep: the first part then writes it anew, settings first. */
    private final boolean anew;
    /** Opened with the first part recorded, so that a reproduction that fails before any leaves its directory as it was. */
    private JsonLinesJournal lines;

    private ReproductionJournal(Path file, Map<String, String> settings, Map<String, JsonNode> parts, boolean anew) {
        this.file = file;
        this.settings = Map.copyOf(settings);
        this.parts = parts;
        this.anew = anew;
    }

    /**
     * The journal of {@code dir}: the one an interrupted reproduction with these {@code settings} left there, or a new
     * one when there is none, it holds no part, or {@code fresh} discards it. Nothing is written until the first part is
     * recorded (a fresh journal then replaces the earlier one).
     *
     * @param settings what every part depends on and no part records, by name, as text
     * @throws IllegalArgumentException when the journal there was written with other settings (naming them and the fix)
     *                                  or a line is damaged
     */
    static ReproductionJournal open(Path dir, Map<String, String> settings, boolean fresh) {
        Path file = dir.resolve(FILE);
        List<String> text = !fresh && Files.isRegularFile(file) ? JsonLinesJournal.wholeLines(file) : List.of();
        Map<String, JsonNode> parts = new HashMap<>();
        if (text.size() <= 1) {   // nothing finished (at most the settings line): nothing to go on from, whatever made it
            return new ReproductionJournal(file, settings, parts, true);
        }
        for (int i = 0; i < text.size(); i++) {
            JsonNode line;
            try {
                line = JSON.readTree(text.get(i));
            } catch (JsonProcessingException e) {
                throw damaged(file, i + 1, "not JSON (" + e.getOriginalMessage() + ")");
            }
            if (i == 0) {
                requireSame(file, settingsOf(file, line), settings, text.size() - 1);
            } else if (line.path("key").isTextual()) {
                parts.put(line.get("key").asText(), line);
            } else {
                throw damaged(file, i + 1, "no key");
            }
        }
        return new ReproductionJournal(file, settings, parts, false);
    }

    /** A new, empty part to fill and {@link #record}. */
    static ObjectNode part(String key) {
        return JSON.createObjectNode().put("key", key);
    }

    /**
     * The finished part with this key, read by {@code read}, if the journal holds it.
     *
     * @throws IllegalArgumentException when {@code read} cannot read it, naming the journal and the fix
     */
    <T> Optional<T> finished(String key, Function<JsonNode, T> read) {
        JsonNode part = parts.get(key);
        if (part == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(read.apply(part));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(file + " holds the part " + key + " but it cannot be read (" + e.getMessage()
                    + "): pass --fresh to run every part again (or remove its line to run it again)", e);
        }
    }

    /** The finished part with this key, as it was recorded, if the journal holds it. */
    Optional<JsonNode> finished(String key) {
        return Optional.ofNullable(parts.get(key));
    }

    /** How many finished parts the journal holds. */
    int size() {
        return parts.size();
    }

    /** Records a finished part (made by {@link #part(String)}). */
    void record(ObjectNode part) {
        if (lines == null) {
            if (anew) {
                delete(file);
            }
            lines = JsonLinesJournal.append(file);
            if (anew) {
                ObjectNode first = JSON.createObjectNode();
                ObjectNode recorded = first.putObject("settings");
                new java.util.TreeMap<>(settings).forEach(recorded::put);
                lines.write(first);
            }
        }
        parts.put(part.get("key").asText(), part);
        lines.write(part);
    }

    /** Deletes the journal once the reproduction's files hold every part. */
    void delete() {
        if (lines != null) {
            lines.delete();
        } else {
            delete(file);
        }
    }

    @Override
    public void close() {
        if (lines != null) {
            lines.close();
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + file + ": " + e.getMessage(), e);
        }
    }

    /** A number as the journal writes it: the shortest decimal that reads back as the same double (NaN and infinities too). */
    static String number(double v) {
        return Double.toString(v);
    }

    /** The number {@code name} of a part, as {@link #number} wrote it. */
    static double number(JsonNode part, String name) {
        return Double.parseDouble(text(part, name));
    }

    /** The text {@code name} of a part. */
    static String text(JsonNode part, String name) {
        JsonNode v = part.get(name);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("the part " + part.path("key").asText() + " has no " + name);
        }
        return v.asText();
    }

    /** The whole number {@code name} of a part. */
    static long integer(JsonNode part, String name) {
        JsonNode v = part.get(name);
        if (v == null || !v.canConvertToLong()) {
            throw new IllegalArgumentException("the part " + part.path("key").asText() + " has no whole number " + name);
        }
        return v.asLong();
    }

    private static Map<String, String> settingsOf(Path file, JsonNode line) {
        JsonNode node = line.get("settings");
        if (node == null || !node.isObject()) {
            throw damaged(file, 1, "the first line must record the settings");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        node.fields().forEachRemaining(e -> settings.put(e.getKey(), e.getValue().asText()));
        return settings;
    }

    private static void requireSame(Path file, Map<String, String> was, Map<String, String> now, int parts) {
        Set<String> names = new TreeSet<>(was.keySet());
        names.addAll(now.keySet());
        List<String> differ = new ArrayList<>();
        for (String name : names) {
            String a = was.get(name);
            String b = now.get(name);
            if (a == null || !a.equals(b)) {
                differ.add(name + " " + (a == null ? "(not recorded)" : a) + " there, " + (b == null ? "(none)" : b) + " now");
            }
        }
        if (!differ.isEmpty()) {
            throw new IllegalArgumentException(file + " holds " + parts + " parts that an interrupted reproduction with other"
                    + " settings finished (" + String.join("; ", differ) + "): rerun it with the options it was started"
                    + " with to go on from there, pass --fresh to discard them, or give another --out");
        }
    }

    private static IllegalArgumentException damaged(Path file, int line, String why) {
        return new IllegalArgumentException(file + " line " + line + " is damaged: " + why + "; the finished parts cannot be"
                + " read: pass --fresh to run them all again (or remove that line and the ones after it to run those"
                + " again)");
    }
}
