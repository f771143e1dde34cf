package org.dpdl4j.privacy.ledger;

import static org.dpdl4j.privacy.accounting.NeighbouringRelation.ADD_OR_REMOVE_ONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.function.Consumer;
import org.dpdl4j.privacy.accounting.ComposedEvent;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.CorrelatedGaussianEvent;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.LaplaceEvent;
import org.dpdl4j.privacy.accounting.NoOpEvent;
import org.dpdl4j.privacy.accounting.NonPrivateEvent;
import org.dpdl4j.privacy.accounting.PoissonSampledEvent;
import org.dpdl4j.privacy.accounting.SampledWithoutReplacementEvent;
import org.dpdl4j.privacy.accounting.RepeatAndSelectEvent;
import org.dpdl4j.privacy.accounting.SelfComposedEvent;
import org.dpdl4j.privacy.accounting.ZCdpEvent;
import org.junit.jupiter.api.Test;

/** A ledger survives its JSON form exactly (so a resumed run prices to the same bits), and bad JSON is named. */
class LedgerJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Through text, as a checkpoint stores it. */
    private static JsonNode reparse(JsonNode node) {
        try {
            return JSON.readTree(JSON.writeValueAsString(node));
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    /** Doubles whose shortest decimal form must come back to the same bits. */
    private static final double[] AWKWARD = {0.1 + 0.2, Math.nextUp(1.0), Double.MIN_VALUE, 1e-300, 123456789.98765433,
            Math.PI * 1e10};

    /** Every kind of event, nested ones included, with awkward parameters. */
    private static List<DpEvent> everyEvent() {
        return List.of(
                new GaussianEvent(AWKWARD[0]), new GaussianEvent(Double.POSITIVE_INFINITY), new GaussianEvent(0),
                new LaplaceEvent(AWKWARD[1]), new ZCdpEvent(AWKWARD[2]), new ZCdpEvent(Double.POSITIVE_INFINITY),
                new CorrelatedGaussianEvent(AWKWARD[3], AWKWARD[4]), new CorrelatedGaussianEvent(Double.POSITIVE_INFINITY, 1),
                new PoissonSampledEvent(AWKWARD[5] / 1e11, new GaussianEvent(AWKWARD[0])),
                new PoissonSampledEvent(0.01, new CorrelatedGaussianEvent(0.25, 2)),
                new SampledWithoutReplacementEvent(60_000, 256, new GaussianEvent(1.3)),
                new SelfComposedEvent(new ComposedEvent(List.of(new GaussianEvent(2), new LaplaceEvent(5),
                        new PoissonSampledEvent(0.5, new GaussianEvent(Math.E)))), Long.MAX_VALUE / 3),
                new ComposedEvent(List.of(new ComposedEvent(List.of()), new SelfComposedEvent(new NoOpEvent(), 0))),
                new NoOpEvent(), new NonPrivateEvent(),
                new RepeatAndSelectEvent(new SelfComposedEvent(new PoissonSampledEvent(0.01, new GaussianEvent(1.1)), 500), AWKWARD[4], 0.5),
                RepeatAndSelectEvent.poisson(new GaussianEvent(AWKWARD[0]), 8),
                new RepeatAndSelectEvent(new ComposedEvent(List.of(new org.dpdl4j.privacy.accounting.EnvelopeEvent(List.of(
                        new GaussianEvent(AWKWARD[1]), new SelfComposedEvent(new LaplaceEvent(3), 7))), new GaussianEvent(20))), 10, 1));
    }

    @Test
    void everyEventRoundTripsExactly() {
        for (DpEvent event : everyEvent()) {
            assertEquals(event, EventJson.read(reparse(EventJson.write(event))), event.toString());
        }
    }

    /** A run's ledger with entries of several parties, segments and noise sources. */
    private static RunLedger sampleLedger(PrivacyBudget budget) {
        List<LedgerEntry> entries = List.of(
                new LedgerEntry(new PoissonSampledEvent(0.004, new GaussianEvent(AWKWARD[0])), 1234, LedgerEntry.ALL_PARTIES,
                        "DP-SGD step: \"quoted\", unicode \u03c3", true, 0),
                new LedgerEntry(new GaussianEvent(Double.POSITIVE_INFINITY), 3, 2, "free", false, 0),
                new LedgerEntry(new CorrelatedGaussianEvent(AWKWARD[3], 1), 17, 0, "visit", true, 1),
                new LedgerEntry(new SelfComposedEvent(new LaplaceEvent(4), 2), 1, 5, "nested", true, 2));
        RunLedger run = new RunLedger(LedgerAccounting.standard(ADD_OR_REMOVE_ONE), budget, true);
        run.continueFrom(new PrivacyLedger(entries), false);
        return run;
    }

    @Test
    void aLedgerRoundTripsExactlyAndPricesToTheSameBits() {
        for (PrivacyBudget budget : List.of(new PrivacyBudget(AWKWARD[0] * 10, 1e-7), PrivacyBudget.unlimited(AWKWARD[3]))) {
            RunLedger run = sampleLedger(budget);
            LedgerJson.Saved saved = LedgerJson.read(reparse(LedgerJson.write(run)));
            assertEquals(ADD_OR_REMOVE_ONE, saved.relation());
            assertEquals(budget, saved.budget());
            assertEquals(run.ledger(), saved.ledger());
            assertEquals(run.ledger().entries(), saved.ledger().entries(), "same entries in the same order");
            LedgerAccounting accounting = LedgerAccounting.standard(saved.relation());
            for (Conversion conversion : Conversion.values()) {
                assertEquals(run.spent(conversion), accounting.bound(saved.ledger(), budget.delta(), conversion));
            }
        }
    }

    /** Reads a ledger after {@code damage} has been done to its JSON; returns the refusal's message. */
    private static String refusal(Consumer<ObjectNode> damage) {
        ObjectNode json = (ObjectNode) reparse(LedgerJson.write(sampleLedger(new PrivacyBudget(8, 1e-5))));
        damage.accept(json);
        return assertThrows(IllegalArgumentException.class, () -> LedgerJson.read(json)).getMessage();
    }

    private static ObjectNode entry(ObjectNode ledger, int index) {
        return (ObjectNode) ((ArrayNode) ledger.get("entries")).get(index);
    }

    @Test
    void aMalformedLedgerIsRefusedNamingTheField() {
        String relation = refusal(j -> j.put("relation", "REPLACE_TWO"));
        assertTrue(relation.contains("neighbouring relation") && relation.contains("REPLACE_TWO"), relation);
        String noRelation = refusal(j -> j.remove("relation"));
        assertTrue(noRelation.contains("missing field 'relation'"), noRelation);
        String noBudget = refusal(j -> ((ObjectNode) j.get("budget")).remove("delta"));
        assertTrue(noBudget.contains("missing field 'delta'"), noBudget);
        String count = refusal(j -> entry(j, 1).remove("count"));
        assertTrue(count.contains("ledger entry 1") && count.contains("missing field 'count'"), count);
        String fractional = refusal(j -> entry(j, 2).put("count", 2.5));
        assertTrue(fractional.contains("ledger entry 2") && fractional.contains("field 'count' is not an integer"), fractional);
        String type = refusal(j -> ((ObjectNode) entry(j, 0).get("event")).put("type", "cauchy"));
        assertTrue(type.contains("ledger entry 0") && type.contains("unknown privacy event type 'cauchy'"), type);
        String nested = refusal(j -> ((ObjectNode) entry(j, 0).get("event").get("event")).remove("noiseMultiplier"));
        assertTrue(nested.contains("ledger entry 0") && nested.contains("missing field 'noiseMultiplier'"), nested);
        String number = refusal(j -> ((ObjectNode) entry(j, 0).get("event")).put("samplingProbability", "often"));
        assertTrue(number.contains("field 'samplingProbability' is not a number"), number);
        String range = refusal(j -> ((ObjectNode) entry(j, 0).get("event")).put("samplingProbability", 1.5));
        assertTrue(range.contains("ledger entry 0") && range.contains("samplingProbability") && range.contains("1.5"), range);
        String mechanism = refusal(j -> entry(j, 3).put("mechanism", 7));
        assertTrue(mechanism.contains("ledger entry 3") && mechanism.contains("field 'mechanism' is not text"), mechanism);
        String party = refusal(j -> entry(j, 3).put("party", -5));
        assertTrue(party.contains("ledger entry 3") && party.contains("party") && party.contains("-5"), party);
        // 2^32 + 1 would wrap to party 1 if read as an int: another party's ledger.
        String wide = refusal(j -> entry(j, 1).put("party", (1L << 32) + 1));
        assertTrue(wide.contains("ledger entry 1") && wide.contains("field 'party' is out of range"), wide);
        String segment = refusal(j -> entry(j, 1).put("segment", 1L << 31));
        assertTrue(segment.contains("field 'segment' is out of range"), segment);
        // Read leniently, "yes" would be false: a secure entry marked seeded, or the reverse for other spellings.
        String secure = refusal(j -> entry(j, 0).put("secureNoise", "yes"));
        assertTrue(secure.contains("ledger entry 0") && secure.contains("field 'secureNoise' is not true or false"), secure);
        String noSecure = refusal(j -> entry(j, 0).remove("secureNoise"));
        assertTrue(noSecure.contains("missing field 'secureNoise'"), noSecure);
    }
}
