package org.dpdl4j.experiments.attack;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.ImageOutcome;
import org.dpdl4j.attacks.NoiseLevel;
import org.dpdl4j.attacks.ReleaseOrigin;
import org.dpdl4j.attacks.Snapshot;
import org.dpdl4j.experiments.report.AtomicFiles;

/**
 * An attack result as JSON: metrics, per-example scores, the snapshot trace (metrics only; the images go to
 * the PNG grid), timing and provenance. Non-finite numbers (an exact reconstruction's PSNR, a missing
 * accuracy) are written as the strings {@code "Infinity"} and {@code "NaN"}.
 */
public final class ResultJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ResultJson() {
    }

    /** The result as a JSON tree. */
    public static ObjectNode toJson(AttackResult r) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("attack", r.attack());
        root.put("method", r.method());
        root.set("provenance", provenance(r.provenance()));
        root.put("batch_size", r.images().size());
        root.put("image_shape", r.shape().toString());
        number(root, "mse", r.mse());
        number(root, "psnr", r.psnr());
        number(root, "ssim", r.ssim());
        number(root, "label_accuracy", r.labelAccuracy());
        root.put("label_correct", r.allLabelsCorrect());
        number(root, "final_matching_loss", r.finalMatchingLoss());
        root.set("noise", noise(r.noise()));
        ObjectNode timing = root.putObject("timing");
        number(timing, "seconds", r.timing().seconds());
        timing.put("evaluations", r.timing().evaluations());
        timing.put("outer_steps", r.timing().outerSteps());
        number(timing, "seconds_per_evaluation", r.timing().secondsPerEvaluation());
        root.put("stop_reason", r.stopReason().name().toLowerCase(java.util.Locale.ROOT));
        ArrayNode images = root.putArray("images");
        for (ImageOutcome o : r.images()) {
            ObjectNode n = images.addObject();
            n.put("example", o.example());
            n.put("reconstruction", o.reconstruction());
            n.put("true_label", o.trueLabel());
            n.put("recovered_label", o.recoveredLabel());
            n.put("label_correct", o.labelCorrect());
            number(n, "mse", o.mse());
            number(n, "psnr", o.psnr());
            number(n, "ssim", o.ssim());
        }
        ArrayNode snapshots = root.putArray("snapshots");
        for (Snapshot s : r.snapshots()) {
            ObjectNode n = snapshots.addObject();
            n.put("iteration", s.iteration());
            n.put("evaluations", s.evaluations());
            number(n, "matching_loss", s.matchingLoss());
            number(n, "mse", s.mse());
            number(n, "psnr", s.psnr());
            number(n, "ssim", s.ssim());
        }
        return root;
    }

    private static ObjectNode provenance(ReleaseOrigin p) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("protocol", p.protocol());
        n.put("observer", p.observer());
        n.put("round", p.round());
        number(n, "model_accuracy", p.modelAccuracy());
        ObjectNode details = n.putObject("details");
        for (Map.Entry<String, String> e : new TreeMap<>(p.details()).entrySet()) {
            details.put(e.getKey(), e.getValue());
        }
        return n;
    }

    private static ObjectNode noise(NoiseLevel noise) {
        ObjectNode n = MAPPER.createObjectNode();
        number(n, "observed_std", noise.observedStd());
        number(n, "gradient_std", noise.gradientStd());
        number(n, "gradient_rms", noise.gradientRms());
        number(n, "std_to_rms", noise.ratio());
        return n;
    }

    private static void number(ObjectNode node, String field, double value) {
        if (Double.isFinite(value)) {
            node.put(field, value);
        } else {
            node.put(field, Double.toString(value));
        }
    }

    /** Writes the result as indented JSON (whole or not at all), creating parent directories. */
    public static void write(AttackResult result, Path file) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        ObjectNode json = toJson(result);
        AtomicFiles.replace(file, f -> MAPPER.writeValue(f.toFile(), json));
    }
}
