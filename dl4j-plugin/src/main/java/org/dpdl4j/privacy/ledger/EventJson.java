package org.dpdl4j.privacy.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.dpdl4j.privacy.accounting.ComposedEvent;
import org.dpdl4j.privacy.accounting.CorrelatedGaussianEvent;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.LaplaceEvent;
import org.dpdl4j.privacy.accounting.NoOpEvent;
import org.dpdl4j.privacy.accounting.NonPrivateEvent;
import org.dpdl4j.privacy.accounting.PoissonSampledEvent;
import org.dpdl4j.privacy.accounting.SampledWithoutReplacementEvent;
import org.dpdl4j.privacy.accounting.EnvelopeEvent;
import org.dpdl4j.privacy.accounting.RepeatAndSelectEvent;
import org.dpdl4j.privacy.accounting.SelfComposedEvent;
import org.dpdl4j.privacy.accounting.ZCdpEvent;

/**
 * {@link DpEvent}s as JSON objects {@code {"type": ..., parameters...}}, for checkpoints and run files. Every
 * parameter round-trips exactly (finite doubles as JSON numbers in their shortest exact form, infinities and NaN
 * as strings), so a restored ledger prices to the same bits as the saved one.
 */
final class EventJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private EventJson() {
    }

    static ObjectNode write(DpEvent event) {
        ObjectNode o = NODES.objectNode();
        if (event instanceof GaussianEvent g) {
            number(o.put("type", "gaussian"), "noiseMultiplier", g.noiseMultiplier());
        } else if (event instanceof LaplaceEvent l) {
            number(o.put("type", "laplace"), "noiseMultiplier", l.noiseMultiplier());
        } else if (event instanceof ZCdpEvent z) {
            number(o.put("type", "zcdp"), "rho", z.rho());
        } else if (event instanceof CorrelatedGaussianEvent c) {
            number(o.put("type", "correlated-gaussian"), "kappa", c.kappa());
            number(o, "contributionNorm", c.contributionNorm());
        } else if (event instanceof PoissonSampledEvent p) {
            number(o.put("type", "poisson-sampled"), "samplingProbability", p.samplingProbability());
            o.set("event", write(p.event()));
        } else if (event instanceof SampledWithoutReplacementEvent w) {
            o.put("type", "sampled-without-replacement").put("sourceSize", w.sourceSize()).put("sampleSize", w.sampleSize());
            o.set("event", write(w.event()));
        } else if (event instanceof RepeatAndSelectEvent r) {
            number(o.put("type", "repeat-and-select"), "mean", r.mean());
            number(o, "shape", r.shape());
            o.set("event", write(r.candidate()));
        } else if (event instanceof EnvelopeEvent v) {
            ArrayNode events = o.put("type", "envelope").putArray("events");
            v.events().forEach(e -> events.add(write(e)));
        } else if (event instanceof SelfComposedEvent s) {
            o.put("type", "self-composed").put("count", s.count());
            o.set("event", write(s.event()));
        } else if (event instanceof ComposedEvent c) {
            ArrayNode events = o.put("type", "composed").putArray("events");
            c.events().forEach(e -> events.add(write(e)));
        } else if (event instanceof NoOpEvent) {
            o.put("type", "no-op");
        } else if (event instanceof NonPrivateEvent) {
            o.put("type", "non-private");
        } else {
            throw new IllegalArgumentException("no JSON form for event " + event);
        }
        return o;
    }

    static DpEvent read(JsonNode o) {
        String type = text(o, "type");
        return switch (type) {
            case "gaussian" -> new GaussianEvent(number(o, "noiseMultiplier"));
            case "laplace" -> new LaplaceEvent(number(o, "noiseMultiplier"));
            case "zcdp" -> new ZCdpEvent(number(o, "rho"));
            case "correlated-gaussian" -> new CorrelatedGaussianEvent(number(o, "kappa"), number(o, "contributionNorm"));
            case "poisson-sampled" -> new PoissonSampledEvent(number(o, "samplingProbability"), read(child(o, "event")));
            case "sampled-without-replacement" -> new SampledWithoutReplacementEvent(integer(o, "sourceSize"),
                    integer(o, "sampleSize"), read(child(o, "event")));
            case "self-composed" -> new SelfComposedEvent(read(child(o, "event")), integer(o, "count"));
            case "repeat-and-select" -> new RepeatAndSelectEvent(read(child(o, "event")), number(o, "mean"), number(o, "shape"));
            case "composed" -> new ComposedEvent(list(child(o, "events")));
            case "envelope" -> new EnvelopeEvent(list(child(o, "events")));
            case "no-op" -> new NoOpEvent();
            case "non-private" -> new NonPrivateEvent();
            default -> throw new IllegalArgumentException("unknown privacy event type '" + type + "'");
        };
    }

    private static List<DpEvent> list(JsonNode events) {
        List<DpEvent> list = new ArrayList<>();
        events.forEach(e -> list.add(read(e)));
        return list;
    }

    private static void number(ObjectNode o, String name, double value) {
        if (Double.isFinite(value)) {
            o.put(name, value);
        } else {
            o.put(name, Double.toString(value));
        }
    }

    static double number(JsonNode o, String name) {
        JsonNode v = child(o, name);
        if (v.isNumber()) {
            return v.doubleValue();
        }
        if (v.isTextual()) {
            try {
                return Double.parseDouble(v.textValue());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("field '" + name + "' is not a number: " + v);
            }
        }
        throw new IllegalArgumentException("field '" + name + "' is not a number: " + v);
    }

    static long integer(JsonNode o, String name) {
        JsonNode v = child(o, name);
        if (!v.canConvertToLong() || !v.isIntegralNumber()) {
            throw new IllegalArgumentException("field '" + name + "' is not an integer: " + v);
        }
        return v.longValue();
    }

    static String text(JsonNode o, String name) {
        JsonNode v = child(o, name);
        if (!v.isTextual()) {
            throw new IllegalArgumentException("field '" + name + "' is not text: " + v);
        }
        return v.textValue();
    }

    static JsonNode child(JsonNode o, String name) {
        JsonNode v = o == null ? null : o.get(name);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("missing field '" + name + "' in " + o);
        }
        return v;
    }
}
