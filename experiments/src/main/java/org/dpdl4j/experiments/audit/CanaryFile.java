package org.dpdl4j.experiments.audit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The canaries file of an audit, {@code canaries.csv}: one row per canary with its coin and its score, so that the
 * audit can be scored again (other guesses, another confidence) without training.
 *
 * @param coins  whether each canary was included
 * @param scores each canary's score
 */
public record CanaryFile(boolean[] coins, double[] scores) {
    /** The header line. */
    static final String HEADER = "canary,included,score";

    /** The file's text. */
    public String text() {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        for (int i = 0; i < coins.length; i++) {
            b.append(i).append(',').append(coins[i] ? 1 : 0).append(',')
                    .append(String.format(Locale.ROOT, "%.17g", scores[i])).append('\n');
        }
        return b.toString();
    }

    /**
     * Reads a canaries file.
     *
     * @throws IllegalArgumentException naming the line and what is wrong with it
     */
    public static CanaryFile read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).strip().equals(HEADER)) {
            throw new IllegalArgumentException(file + ", line 1: expected the header '" + HEADER + "' of a canaries file"
                    + " written by dpdl4j audit; give the canaries.csv of an audit run");
        }
        List<String> rows = lines.subList(1, lines.size()).stream().filter(l -> !l.isBlank()).toList();
        boolean[] coins = new boolean[rows.size()];
        double[] scores = new double[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            String[] f = rows.get(i).split(",", -1);
            String where = file + ", line " + (i + 2) + ": ";
            if (f.length != 3) {
                throw new IllegalArgumentException(where + "expected 3 fields (canary,included,score), got " + f.length);
            }
            if (!f[0].strip().equals(Integer.toString(i))) {
                throw new IllegalArgumentException(where + "expected canary " + i + ", got '" + f[0] + "' (rows must be in"
                        + " order, none missing)");
            }
            coins[i] = switch (f[1].strip()) {
                case "1" -> true;
                case "0" -> false;
                default -> throw new IllegalArgumentException(where + "included must be 0 or 1, got '" + f[1] + "'");
            };
            try {
                scores[i] = Double.parseDouble(f[2].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + "score '" + f[2] + "' is not a number");
            }
            if (!Double.isFinite(scores[i])) {
                throw new IllegalArgumentException(where + "score " + f[2] + " is not finite");
            }
        }
        if (coins.length == 0) {
            throw new IllegalArgumentException(file + " holds no canary rows; give the canaries.csv of an audit run");
        }
        return new CanaryFile(coins, scores);
    }
}
