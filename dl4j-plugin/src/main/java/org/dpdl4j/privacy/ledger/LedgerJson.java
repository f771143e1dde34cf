package org.dpdl4j.privacy.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;

/**
 * A run's ledger as JSON, for its checkpoint and its run directory: the neighbouring relation, the budget and every
 * entry with its event. Reading refuses anything malformed with a message that names the field.
 */
public final class LedgerJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private LedgerJson() {
    }

    /** The saved form of a run's ledger. */
    public static ObjectNode write(RunLedger run) {
        ObjectNode o = NODES.objectNode();
        o.put("relation", run.accounting().relation().name());
        o.put("accountant", run.accounting().method());
        ObjectNode budget = o.putObject("budget");
        if (run.budget().isLimited()) {
            budget.put("epsilon", run.budget().epsilon());
        } else {
            budget.put("epsilon", "Infinity");
        }
        budget.put("delta", run.budget().delta());
        o.set("entries", entries(run.ledger()));
        return o;
    }

    /** The entries of a ledger as a JSON array. */
    public static ArrayNode entries(PrivacyLedger ledger) {
        ArrayNode entries = NODES.arrayNode();
        for (LedgerEntry e : ledger.entries()) {
            ObjectNode n = entries.addObject();
            n.set("event", EventJson.write(e.event()));
            n.put("count", e.count()).put("party", e.party()).put("mechanism", e.mechanism())
                    .put("secureNoise", e.secureNoise()).put("segment", e.segment());
        }
        return entries;
    }

    /**
     * What a ledger saved before its accountant was recorded was priced by: Renyi DP ({@link AccountantFactory#renyi()}),
     * the only pricing there was.
     */
    public static final String UNRECORDED_ACCOUNTANT = AccountantFactory.RDP;

    /**
     * What a saved ledger holds.
     *
     * @param accountant how it was priced ({@link LedgerAccounting#method()}; {@link #UNRECORDED_ACCOUNTANT} when the
     *                   saved form predates the record)
     */
    public record Saved(NeighbouringRelation relation, PrivacyBudget budget, PrivacyLedger ledger, String accountant) {
    }

    /**
     * Reads a saved ledger.
     *
     * @throws IllegalArgumentException naming the malformed field
     */
    public static Saved read(JsonNode o) {
        String relationName = EventJson.text(o, "relation");
        NeighbouringRelation relation;
        try {
            relation = NeighbouringRelation.valueOf(relationName);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown neighbouring relation '" + relationName + "' in the ledger");
        }
        JsonNode budget = EventJson.child(o, "budget");
        PrivacyBudget b = new PrivacyBudget(EventJson.number(budget, "epsilon"), EventJson.number(budget, "delta"));
        List<LedgerEntry> entries = new ArrayList<>();
        int index = 0;
        for (JsonNode n : EventJson.child(o, "entries")) {
            try {
                entries.add(new LedgerEntry(EventJson.read(EventJson.child(n, "event")), EventJson.integer(n, "count"),
                        intField(n, "party"), EventJson.text(n, "mechanism"), flag(n, "secureNoise"), intField(n, "segment")));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("ledger entry " + index + ": " + e.getMessage(), e);
            }
            index++;
        }
        String accountant = o.has("accountant") ? EventJson.text(o, "accountant") : UNRECORDED_ACCOUNTANT;
        return new Saved(relation, b, new PrivacyLedger(entries), accountant);
    }

    /** An integer field that must fit an int (a party or a segment; a wider value is not silently wrapped). */
    private static int intField(JsonNode o, String name) {
        long v = EventJson.integer(o, name);
        if (v != (int) v) {
            throw new IllegalArgumentException("field '" + name + "' is out of range: " + v);
        }
        return (int) v;
    }

    /** A true/false field (anything else is refused, not read as false). */
    private static boolean flag(JsonNode o, String name) {
        JsonNode v = EventJson.child(o, name);
        if (!v.isBoolean()) {
            throw new IllegalArgumentException("field '" + name + "' is not true or false: " + v);
        }
        return v.booleanValue();
    }
}
