package org.dpdl4j.experiments.tuning;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.deeplearning4j.arbiter.optimize.api.ParameterSpace;

/**
 * What a tuning searches: a range per option (the options {@code train} takes, e.g. {@code lr}, {@code clip},
 * {@code batch-size}, {@code hidden}), as an Arbiter parameter space whose value is one candidate's option texts.
 * Read from JSON, one member per option:
 * <pre>{ "lr": {"log": [0.03, 3]}, "batch-size": {"log-integer": [32, 1024]}, "activation": {"choice": ["relu", "tanh"]} }</pre>
 * or a named preset ({@link #PRESETS}).
 */
public final class SearchSpace implements ParameterSpace<Map<String, String>> {
    /** The presets, by name: the central DP-SGD knobs, the network, and the decentralized and federated knobs. */
    public static final List<String> PRESETS = List.of("dp-sgd", "network", "decentralized", "federated");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<SearchDimension> dimensions;
    private final List<ParameterSpace<?>> leaves = new ArrayList<>();

    public SearchSpace(List<SearchDimension> dimensions) {
        if (dimensions.isEmpty()) {
            throw new IllegalArgumentException("a search space needs at least one option to search");
        }
        Map<String, SearchDimension> seen = new LinkedHashMap<>();
        for (SearchDimension d : dimensions) {
            if (seen.put(d.option(), d) != null) {
                throw new IllegalArgumentException("search space: '" + d.option() + "' is given twice; keep one range per option");
            }
            leaves.add(d.leaf());
        }
        this.dimensions = List.copyOf(dimensions);
    }

    /** A preset by name, or the JSON file at that path. */
    public static SearchSpace of(String presetOrFile) throws IOException {
        if (PRESETS.contains(presetOrFile)) {
            try (InputStream in = SearchSpace.class.getResourceAsStream(presetOrFile + ".json")) {
                return fromJson(JSON.readTree(in), "preset " + presetOrFile);
            }
        }
        Path file = Path.of(presetOrFile);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("--space " + presetOrFile + " is neither a preset (" + String.join(", ", PRESETS)
                    + ") nor a readable JSON file");
        }
        JsonNode root;
        try {
            root = UserJson.read(file);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("search space " + e.getMessage() + "; write one member per option, e.g."
                    + " {\"lr\": {\"log\": [0.01, 1]}}", e);
        }
        return fromJson(root, file.toString());
    }

    /** A space from its JSON form (see the class comment); {@code source} names it in errors. */
    public static SearchSpace fromJson(JsonNode root, String source) {
        if (root == null || !root.isObject() || root.isEmpty()) {
            throw new IllegalArgumentException(source + ": a search space is a JSON object with one member per option,"
                    + " e.g. {\"lr\": {\"log\": [0.01, 1]}}");
        }
        List<SearchDimension> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String option = e.getKey();
            JsonNode range = e.getValue();
            if (!range.isObject() || range.size() != 1) {
                throw new IllegalArgumentException(source + ": '" + option + "' must be an object with one range, e.g."
                        + " {\"log\": [0.01, 1]} or {\"choice\": [\"relu\", \"tanh\"]}");
            }
            String kindName = range.fieldNames().next();
            SearchDimension.Kind kind = SearchDimension.Kind.parse(kindName, option);
            JsonNode bounds = range.get(kindName);
            if (!bounds.isArray()) {
                throw new IllegalArgumentException(source + ": '" + option + "' needs an array: [min, max] or the choices");
            }
            if (bounds.isEmpty()) {
                throw new IllegalArgumentException(source + ": '" + option + "' has an empty " + kindName + " list; give "
                        + (kind == SearchDimension.Kind.CHOICE ? "at least one value, e.g. {\"choice\": [\"relu\", \"tanh\"]}"
                        : "[min, max], e.g. {\"" + kindName + "\": [1, 10]}"));
            }
            if (kind == SearchDimension.Kind.CHOICE) {
                List<String> values = new ArrayList<>();
                bounds.forEach(v -> values.add(v.asText()));
                out.add(SearchDimension.choice(option, values));
            } else {
                if (bounds.size() != 2 || !bounds.get(0).isNumber() || !bounds.get(1).isNumber()) {
                    throw new IllegalArgumentException(source + ": '" + option + "' (" + kindName + ") needs [min, max] as two numbers");
                }
                out.add(new SearchDimension(option, kind, bounds.get(0).asDouble(), bounds.get(1).asDouble(), null));
            }
        }
        return new SearchSpace(out);
    }

    /** The JSON form (what {@link #fromJson} reads). */
    public ObjectNode toJson() {
        ObjectNode root = JSON.createObjectNode();
        for (SearchDimension d : dimensions) {
            ArrayNode a = root.putObject(d.option()).putArray(d.kind().jsonName());
            if (d.kind() == SearchDimension.Kind.CHOICE) {
                d.values().forEach(a::add);
            } else {
                a.add(d.min()).add(d.max());
            }
        }
        return root;
    }

    public List<SearchDimension> dimensions() {
        return dimensions;
    }

    /** The option names searched, in order. */
    public List<String> options() {
        return dimensions.stream().map(SearchDimension::option).toList();
    }

    @Override
    public Map<String, String> getValue(double[] parameterValues) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < dimensions.size(); i++) {
            out.put(dimensions.get(i).option(), dimensions.get(i).text(leaves.get(i).getValue(parameterValues)));
        }
        return out;
    }

    @Override
    public int numParameters() {
        return leaves.size();
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public List<ParameterSpace> collectLeaves() {
        return (List) List.copyOf(leaves);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Map<String, ParameterSpace> getNestedSpaces() {
        Map<String, ParameterSpace> out = new LinkedHashMap<>();
        for (int i = 0; i < dimensions.size(); i++) {
            out.put(dimensions.get(i).option(), leaves.get(i));
        }
        return out;
    }

    @Override
    public boolean isLeaf() {
        return false;
    }

    @Override
    public void setIndices(int... indices) {
        throw new UnsupportedOperationException("a search space is not a leaf: Arbiter indexes its leaves");
    }

    @Override
    public String toString() {
        return String.join("; ", dimensions.stream().map(SearchDimension::toString).toList());
    }
}
