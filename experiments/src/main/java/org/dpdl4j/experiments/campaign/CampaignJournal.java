package org.dpdl4j.experiments.campaign;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.dpdl4j.experiments.report.JsonLinesJournal;

/**
 * What a campaign has finished, one JSON line per tapped run and per row, written and forced to disk as each one
 * finishes, so that a crash or a kill loses at most the row in progress and {@code attack report --resume} goes on from
 * there. The first line records the plan; a journal is only continued by the same plan.
 *
 * <p>Numbers are written as Java's shortest round-trip decimal strings (NaN and infinities included) and
 * reconstructions as the base64 of their little-endian doubles, so a resumed campaign's records equal the ones the
 * interrupted run made, bit for bit.
 */
public final class CampaignJournal implements AutoCloseable {

    /** The journal's file name in a run directory. */
    public static final String FILE_NAME = "journal.jsonl";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A tapped run the journal holds: what it was and the observers whose rows it produced. */
    record FinishedRun(RunInfo info, List<String> observers) {
    }

    /** A row the journal holds: its records and the blind guesses made for it. */
    record FinishedRow(List<AttackRecord> records, List<AttackRecord> noiseOnly) {
    }

    private final JsonLinesJournal lines;
    private final Map<String, FinishedRun> runs;
    private final Map<RowKey, FinishedRow> rows;
    private double elapsed;

    private CampaignJournal(JsonLinesJournal lines, Map<String, FinishedRun> runs, Map<RowKey, FinishedRow> rows,
                            double elapsed) {
        this.lines = lines;
        this.runs = runs;
        this.rows = rows;
        this.elapsed = elapsed;
    }

    /** A journal that keeps nothing (tests, embedded use). */
    public static CampaignJournal none() {
        return new CampaignJournal(null, new HashMap<>(), new HashMap<>(), 0);
    }

    /**
     * Starts a new journal at {@code file} for {@code plan}.
     *
     * @throws IllegalStateException when the file exists (a run never overwrites another's journal)
     */
    public static CampaignJournal create(Path file, String plan) {
        Objects.requireNonNull(plan, "plan must not be null");
        if (Files.exists(file)) {
            throw new IllegalStateException(file + " already exists: it holds another campaign's finished rows; continue"
                    + " that campaign with --resume " + file.getParent() + " or give another --out");
        }
        return begin(file, plan);
    }

    private static CampaignJournal begin(Path file, String plan) {
        CampaignJournal journal = new CampaignJournal(JsonLinesJournal.append(file), new HashMap<>(), new HashMap<>(), 0);
        ObjectNode line = JSON.createObjectNode().put("type", "plan").put("plan", plan);
        journal.write(line);
        return journal;
    }

    /**
     * Opens the journal an interrupted campaign left at {@code file} to continue it with the same plan. A last line cut
     * off by the crash is dropped (that row runs again), and a journal whose plan line was cut off (no row ran) starts
     * again; any other unreadable line is an error.
     *
     * @throws IllegalStateException naming the problem and the fix: no journal, another plan, a damaged line
     */
    public static CampaignJournal resume(Path file, String plan) {
        Objects.requireNonNull(plan, "plan must not be null");
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("nothing to resume: " + file + " does not exist (a finished report deletes"
                    + " its journal, and a run that made none never started); start a new report without --resume");
        }
        List<String> lines = JsonLinesJournal.wholeLines(file);   // a line the crash cut off is dropped: that row runs again
        Map<String, FinishedRun> runs = new HashMap<>();
        Map<RowKey, FinishedRow> rows = new HashMap<>();
        double elapsed = 0;
        for (int i = 0; i < lines.size(); i++) {
            JsonNode line;
            try {
                line = JSON.readTree(lines.get(i));
            } catch (JsonProcessingException e) {
                throw damaged(file, i + 1, "not JSON (" + e.getOriginalMessage() + ")");
            }
            String type = line.path("type").asText();
            if (i == 0) {
                if (!type.equals("plan")) {
                    throw damaged(file, 1, "the first line must record the plan");
                }
                if (!line.path("plan").asText().equals(plan)) {
                    throw new IllegalStateException(file + " was written by a campaign with other settings; resume it"
                            + " with the options it was started with (see config.json beside it), or start a new report"
                            + " without --resume.\n  journal: " + line.path("plan").asText() + "\n  now:     " + plan);
                }
                continue;
            }
            try {
                switch (type) {
                    case "run" -> {
                        FinishedRun run = readRun(line);
                        runs.put(runKey(text(line, "protocol"), run.info().epsilon()), run);
                    }
                    case "row" -> {
                        RowKey key = readKey(line);
                        rows.put(key, new FinishedRow(readRecords(line.path("records"), key),
                                readRecords(line.path("noise_only"), key)));
                        elapsed = number(line, "elapsed");
                    }
                    default -> throw new IllegalArgumentException("unknown line type '" + type + "'");
                }
            } catch (RuntimeException e) {
                throw damaged(file, i + 1, e.getMessage());
            }
        }
        if (lines.isEmpty()) {
            // the crash came before the plan line was whole (and wholeLines emptied the file): no row ran, so the
            // journal starts again with this plan
            return begin(file, plan);
        }
        return new CampaignJournal(JsonLinesJournal.append(file), runs, rows, elapsed);
    }

    private static IllegalStateException damaged(Path file, int line, String why) {
        return new IllegalStateException(file + " line " + line + " is damaged: " + why + "; the journal cannot be"
                + " continued: start a new report without --resume (or remove the damaged lines and everything after"
                + " them to rerun those rows)");
    }

    /** The tapped run of {@code protocol} at {@code epsilon}, if the journal holds it. */
    Optional<FinishedRun> run(String protocol, double epsilon) {
        return Optional.ofNullable(runs.get(runKey(protocol, epsilon)));
    }

    /** Whether the journal holds the tapped run of {@code protocol} at {@code epsilon} and all its rows, for every attack. */
    boolean holdsEveryRow(String protocol, double epsilon, List<String> attacks) {
        FinishedRun run = runs.get(runKey(protocol, epsilon));
        return run != null && run.observers().stream().allMatch(o -> attacks.stream()
                .allMatch(a -> rows.containsKey(new RowKey(run.info().algorithm(), o, epsilon, a))));
    }

    /** The finished row, if the journal holds it. */
    Optional<FinishedRow> row(RowKey key) {
        return Optional.ofNullable(rows.get(key));
    }

    /** Seconds the campaign had run when its last journaled row finished (0 for a new journal). */
    double elapsedBefore() {
        return elapsed;
    }

    /** Records the tapped run of {@code protocol} and the observers it produced rows for. */
    void recordRun(String protocol, RunInfo info, List<String> observers) {
        runs.put(runKey(protocol, info.epsilon()), new FinishedRun(info, List.copyOf(observers)));
        ObjectNode line = JSON.createObjectNode().put("type", "run").put("protocol", protocol)
                .put("algorithm", info.algorithm())
                .put("epsilon", Double.toString(info.epsilon())).put("cases", info.cases())
                .put("seconds", Double.toString(info.seconds()));
        ObjectNode calibration = line.putObject("calibration");
        info.calibration().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> calibration.put(e.getKey(), e.getValue()));
        ArrayNode observed = line.putArray("observers");
        observers.forEach(observed::add);
        write(line);
    }

    /** Records a finished row and the campaign's elapsed time then. */
    void recordRow(RowKey key, List<AttackRecord> records, List<AttackRecord> noiseOnly, double elapsedSeconds) {
        rows.put(key, new FinishedRow(List.copyOf(records), List.copyOf(noiseOnly)));
        elapsed = elapsedSeconds;
        ObjectNode line = JSON.createObjectNode().put("type", "row").put("algorithm", key.algorithm())
                .put("observer", key.observer()).put("epsilon", Double.toString(key.epsilon()))
                .put("attack", key.attack()).put("elapsed", Double.toString(elapsedSeconds));
        writeRecords(line.putArray("records"), records);
        writeRecords(line.putArray("noise_only"), noiseOnly);
        write(line);
    }

    /** Deletes the journal once the report's own files hold everything it had. */
    public void delete() {
        if (lines != null) {
            lines.delete();
        }
    }

    @Override
    public void close() {
        if (lines != null) {
            lines.close();
        }
    }

    private void write(ObjectNode line) {
        if (lines != null) {
            lines.write(line);
        }
    }

    private static String runKey(String protocol, double epsilon) {
        return protocol + "@" + Double.toString(epsilon);
    }

    private static void writeRecords(ArrayNode array, List<AttackRecord> records) {
        for (AttackRecord r : records) {
            ObjectNode o = array.addObject();
            o.put("target", r.target()).put("party", r.party()).put("round", r.round())
                    .put("model_accuracy", Double.toString(r.modelAccuracy()))
                    .put("noise_std", Double.toString(r.noiseStd()))
                    .put("noise_ratio", Double.toString(r.noiseRatio()))
                    .put("psnr", Double.toString(r.psnr())).put("ssim", Double.toString(r.ssim()))
                    .put("true_label", r.trueLabel()).put("recovered_label", r.recoveredLabel())
                    .put("seconds", Double.toString(r.seconds()));
            if (r.pixels() != null) {
                ByteBuffer raw = ByteBuffer.allocate(8 * r.pixels().length).order(ByteOrder.LITTLE_ENDIAN);
                raw.asDoubleBuffer().put(r.pixels());
                o.put("pixels", Base64.getEncoder().encodeToString(raw.array()));
            }
        }
    }

    private static FinishedRun readRun(JsonNode line) {
        Map<String, String> calibration = new LinkedHashMap<>();
        line.path("calibration").fields().forEachRemaining(e -> calibration.put(e.getKey(), e.getValue().asText()));
        List<String> observers = new ArrayList<>();
        line.path("observers").forEach(o -> observers.add(o.asText()));
        RunInfo info = new RunInfo(text(line, "algorithm"), number(line, "epsilon"), calibration,
                integer(line, "cases"), number(line, "seconds"));
        return new FinishedRun(info, observers);
    }

    private static RowKey readKey(JsonNode line) {
        return new RowKey(text(line, "algorithm"), text(line, "observer"), number(line, "epsilon"),
                text(line, "attack"));
    }

    private static List<AttackRecord> readRecords(JsonNode array, RowKey key) {
        if (!array.isArray()) {
            throw new IllegalArgumentException("a row must list its records");
        }
        List<AttackRecord> out = new ArrayList<>();
        for (JsonNode o : array) {
            double[] pixels = null;
            if (o.hasNonNull("pixels")) {
                ByteBuffer raw = ByteBuffer.wrap(Base64.getDecoder().decode(o.get("pixels").asText()))
                        .order(ByteOrder.LITTLE_ENDIAN);
                pixels = new double[raw.remaining() / 8];
                raw.asDoubleBuffer().get(pixels);
            }
            out.add(new AttackRecord(key, integer(o, "target"), integer(o, "party"), longValue(o, "round"),
                    number(o, "model_accuracy"), number(o, "noise_std"), number(o, "noise_ratio"), number(o, "psnr"),
                    number(o, "ssim"), integer(o, "true_label"), integer(o, "recovered_label"), number(o, "seconds"),
                    pixels));
        }
        return out;
    }

    private static JsonNode field(JsonNode o, String name) {
        JsonNode v = o.get(name);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("field '" + name + "' is missing");
        }
        return v;
    }

    private static String text(JsonNode o, String name) {
        return field(o, name).asText();
    }

    private static double number(JsonNode o, String name) {
        String v = text(o, name);
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("field '" + name + "' is not a number: '" + v + "'");
        }
    }

    private static int integer(JsonNode o, String name) {
        JsonNode v = field(o, name);
        if (!v.canConvertToInt()) {
            throw new IllegalArgumentException("field '" + name + "' is not an integer: " + v);
        }
        return v.intValue();
    }

    private static long longValue(JsonNode o, String name) {
        JsonNode v = field(o, name);
        if (!v.canConvertToLong()) {
            throw new IllegalArgumentException("field '" + name + "' is not an integer: " + v);
        }
        return v.longValue();
    }
}
