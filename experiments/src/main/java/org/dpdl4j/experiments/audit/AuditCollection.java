package org.dpdl4j.experiments.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.dpdl4j.experiments.report.AtomicFiles;
import org.dpdl4j.experiments.report.Figure;
import org.dpdl4j.experiments.report.Panel;
import org.dpdl4j.experiments.report.Plots;
import org.dpdl4j.experiments.report.Series;
import org.dpdl4j.privacy.ledger.EpsilonFormat;

/**
 * The audits in the sub-directories of one folder, side by side: each audit's claimed epsilon (the accountant's) and
 * its lower bound, in {@code audits.csv} and in {@code epsilon-lower.png}, one line per kind of audit (data set,
 * auditor, canaries, their number) against the diagonal where the lower bound would equal the claim. A point above the
 * diagonal would be a broken mechanism or analysis; the distance below it is what one run and m canaries cannot show.
 */
public final class AuditCollection {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Claims up to this epsilon get a panel of their own when larger ones would squeeze them. */
    private static final double USUAL_EPSILON = 10;

    /** One audit: where it is, what kind it is, and its two epsilons. */
    public record Row(String run, String kind, double epsilon, double epsilonLower, int canaries, long steps, double samplingRate) {
    }

    private AuditCollection() {
    }

    /**
     * Reads every {@code DIR/RUN/audit.json} (with its {@code config.json}) and writes {@code DIR/audits.csv} and
     * {@code DIR/epsilon-lower.png}.
     *
     * @return the audits, by kind then claimed epsilon
     * @throws IllegalArgumentException when the folder holds no audit, or an audit lacks its configuration
     */
    public static List<Row> summarize(Path dir) throws IOException {
        List<Row> rows = read(dir);
        StringBuilder csv = new StringBuilder("run,kind,epsilon,epsilon_lower,canaries,steps,sampling_rate\n");
        for (Row r : rows) {
            csv.append(String.format(Locale.ROOT, "%s,%s,%s,%s,%d,%d,%.6f%n", r.run(), r.kind(), EpsilonFormat.upward(r.epsilon(), 6),
                    EpsilonFormat.downward(r.epsilonLower(), 6), r.canaries(), r.steps(), r.samplingRate()));
        }
        AtomicFiles.replace(dir.resolve("audits.csv"), csv.toString());
        Plots.write(dir.resolve("epsilon-lower.png"), figure(rows));
        return rows;
    }

    static List<Row> read(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is not a folder; give the folder that holds the audits' folders");
        }
        List<Row> rows = new ArrayList<>();
        try (Stream<Path> runs = Files.list(dir)) {
            for (Path run : runs.filter(p -> Files.isRegularFile(p.resolve("audit.json"))).sorted().toList()) {
                Path configFile = run.resolve("config.json");
                if (!Files.isRegularFile(configFile)) {
                    throw new IllegalArgumentException(run + " has audit.json but no config.json; rerun that audit");
                }
                JsonNode audit = JSON.readTree(run.resolve("audit.json").toFile());
                JsonNode config = JSON.readTree(configFile.toFile()).path("config");
                Path auditFile = run.resolve("audit.json");
                rows.add(new Row(run.getFileName().toString(), kind(config), number(audit, "epsilon", auditFile),
                        number(audit, "epsilon_lower", auditFile), (int) number(audit, "canaries", auditFile),
                        (long) number(audit, "steps", auditFile), number(audit, "sampling_rate", auditFile)));
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(dir + " holds no audit (no RUN/audit.json); run dpdl4j audit --out "
                    + dir.resolve("RUN") + " first");
        }
        rows.sort(Comparator.comparing(Row::kind).thenComparingDouble(Row::epsilon).thenComparing(Row::run));
        return rows;
    }

    /** A number of an audit's record (written as a number, or as text such as "Infinity"); never a silent 0. */
    private static double number(JsonNode audit, String field, Path file) {
        JsonNode v = audit.path(field);
        if (v.isNumber()) {
            return v.asDouble();
        }
        if (v.isTextual()) {
            try {
                return Double.parseDouble(v.asText());
            } catch (NumberFormatException e) {
                // named below
            }
        }
        throw new IllegalArgumentException(file + ": '" + field + "' is " + (v.isMissingNode() ? "missing" : "not a number ("
                + v + ")") + "; rerun that audit, or move its folder out of the collection");
    }

    /**
     * e.g. {@code mnist white-box-lr dirac m=5000 B=250} or {@code mnist dp-fedavg-local observed by the server m=1000}:
     * what a line of the plot joins.
     */
    private static String kind(JsonNode config) {
        if (config.has("observer")) {
            return config.path("dataset").asText() + " " + config.path("algo").asText() + " observed by the "
                    + config.path("observer").asText()
                    + (config.has("topology") ? " " + config.path("topology").asText() + " n=" + config.path("nodes").asInt() : "")
                    + " m=" + config.path("canaries").asInt()
                    + (config.path("client_rate").asDouble(1) < 1 ? " q=" + config.path("client_rate").asDouble() : "");
        }
        String canary = config.path("auditor").asText().equals(DpSgdAudit.BLACK_BOX) ? ""
                : " " + config.path("canary_kind").asText(DpSgdAudit.RANDOM);
        return config.path("dataset").asText() + " " + config.path("auditor").asText() + canary + " m="
                + config.path("canaries").asInt() + (config.has("batch_size") ? " B=" + config.path("batch_size").asInt() : "");
    }

    /**
     * One panel of every audit; when some claim is far above the usual range (an audit of a run that protects almost
     * nothing), a second panel up to {@value #USUAL_EPSILON}, where the other points would be squeezed together.
     */
    private static Figure figure(List<Row> rows) {
        Panel all = panel("every audit", rows);
        List<Row> usual = rows.stream().filter(r -> r.epsilon() <= USUAL_EPSILON).toList();
        if (usual.size() == rows.size() || usual.isEmpty()) {
            return Figure.of(all.withTitle("One-run audits: lower bound against the accountant's epsilon"));
        }
        return new Figure("One-run audits: lower bound against the accountant's epsilon",
                List.of(all, panel("claims up to epsilon = " + (int) USUAL_EPSILON, usual)), true);
    }

    private static Panel panel(String title, List<Row> rows) {
        Map<String, List<Row>> byKind = new LinkedHashMap<>();
        rows.forEach(r -> byKind.computeIfAbsent(r.kind(), k -> new ArrayList<>()).add(r));
        List<Series> series = new ArrayList<>();
        double top = rows.stream().mapToDouble(Row::epsilon).max().orElseThrow();
        series.add(new Series("epsilon_lower = epsilon", new double[] {0, top}, new double[] {0, top}));
        byKind.forEach((kind, list) -> series.add(new Series(kind, list.stream().mapToDouble(Row::epsilon).toArray(),
                list.stream().mapToDouble(Row::epsilonLower).toArray())));
        return Panel.of(title, "accountant's epsilon", "audit's epsilon lower bound (95%)", series).withMarkers(true);
    }
}
