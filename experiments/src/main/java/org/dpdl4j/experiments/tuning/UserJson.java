package org.dpdl4j.experiments.tuning;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JSON file written by a person (a search space). A name given twice is refused instead of the last one silently
 * winning, anything after the value is refused, and a syntax error is told by its line, column and what was found
 * there, in plain words instead of the parser's own vocabulary (its feature and class names).
 */
final class UserJson {
    private static final ObjectMapper STRICT = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final Pattern DUPLICATE = Pattern.compile("Duplicate field '(.*)'");
    private static final Pattern CHARACTER = Pattern.compile("Unexpected character \\('(.+?)' \\(code");
    private static final Pattern TOKEN = Pattern.compile("token '(.*?)'");
    private static final String RULES = "JSON needs double-quoted names and text, commas only between members, and no"
            + " comments";

    private UserJson() {
    }

    /**
     * The file's JSON value.
     *
     * @throws IllegalArgumentException naming the file, the line and column, and the problem
     * @throws IOException              when the file cannot be read
     */
    static JsonNode read(Path file) throws IOException {
        try {
            return STRICT.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + where(e.getLocation()) + ": " + problem(e), e);
        }
    }

    private static String where(JsonLocation at) {
        return at == null || at.getLineNr() < 1 ? "" : ", line " + at.getLineNr() + ", column " + at.getColumnNr();
    }

    /** What is wrong, in words. */
    static String problem(JsonProcessingException e) {
        String original = String.valueOf(e.getOriginalMessage());
        Matcher m = DUPLICATE.matcher(original);
        if (m.find()) {
            return "'" + m.group(1) + "' is given twice; give each name once";
        }
        if (e instanceof JsonEOFException) {
            return "the file ends before the JSON is complete; close every '{' and '['";
        }
        if (original.startsWith("Trailing token")) {
            return "there is more after the JSON object; the file holds one object";
        }
        m = CHARACTER.matcher(original);
        if (m.find()) {
            return "unexpected '" + m.group(1) + "' (" + RULES + ")";
        }
        m = TOKEN.matcher(original);
        if (m.find()) {
            return "'" + m.group(1) + "' is not a JSON value; write numbers in digits (e.g. 0.01) and text in double"
                    + " quotes";
        }
        return "this is not valid JSON (" + RULES + ")";
    }
}
