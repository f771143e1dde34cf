package org.dpdl4j.privacy.accounting;

import java.util.function.Function;
import java.util.function.ObjLongConsumer;

/**
 * Walks the composition structure of an event ({@link SelfComposedEvent}, {@link ComposedEvent}) down
 * to its leaves, the events that an accountant prices one by one.
 */
final class EventTree {
    private EventTree() {
    }

    /** Calls {@code action} for every leaf with its total multiplicity; leaves repeated 0 times are skipped. */
    static void forEachLeaf(DpEvent event, long multiplicity, ObjLongConsumer<DpEvent> action) {
        if (multiplicity == 0) {
            return;
        }
        if (event instanceof SelfComposedEvent self) {
            forEachLeaf(self.event(), Math.multiplyExact(multiplicity, self.count()), action);
        } else if (event instanceof ComposedEvent composed) {
            for (DpEvent e : composed.events()) {
                forEachLeaf(e, multiplicity, action);
            }
        } else {
            action.accept(event, multiplicity);
        }
    }

    /**
     * The reason the first refused leaf is refused, naming the composite elements on the way, or null if
     * every leaf is accepted.
     *
     * @param leafRefusal why a leaf is refused, or null if it is accepted
     */
    static String refusal(DpEvent event, Function<DpEvent, String> leafRefusal) {
        if (event instanceof SelfComposedEvent self) {
            return refusal(self.event(), leafRefusal);
        }
        if (event instanceof ComposedEvent composed) {
            for (DpEvent e : composed.events()) {
                String reason = refusal(e, leafRefusal);
                if (reason != null) {
                    return "its element " + e + " is refused: " + reason;
                }
            }
            return null;
        }
        return leafRefusal.apply(event);
    }
}
