package org.dpdl4j.cuda.engine;

/**
 * A range of the flat parameter vector and the rule that moves it with the released gradient g, as DL4J's updaters
 * compute it (then {@code params -= update}, DL4J's step function):
 * <ul>
 *   <li>{@link Rule#SGD} (DL4J's {@code Sgd}): update = lr g;</li>
 *   <li>{@link Rule#NESTEROVS} (DL4J's {@code Nesterovs}, momentum mu, one state value v per parameter):
 *       {@code m = mu v; v := m - lr g; update = m + (-mu - 1) v}.</li>
 * </ul>
 *
 * @param start      the first parameter
 * @param length     how many parameters
 * @param rule       the update rule
 * @param stateStart where the segment's state begins in the updater state (its length is {@link #stateLength()})
 */
public record UpdateSegment(int start, int length, Rule rule, int stateStart) {
    /** The updaters the engine applies on the device. */
    public enum Rule { SGD, NESTEROVS }

    public UpdateSegment {
        if (start < 0 || length < 1 || stateStart < 0 || rule == null) {
            throw new IllegalArgumentException("an update segment needs start >= 0, length >= 1, a rule and a state"
                    + " offset >= 0; got start " + start + ", length " + length + ", " + rule + ", state " + stateStart);
        }
    }

    /** Plain SGD over the parameters {@code [0, count)}. */
    public static UpdateSegment sgd(int count) {
        return new UpdateSegment(0, count, Rule.SGD, 0);
    }

    /** The updater state values the rule keeps: none for SGD, one per parameter for Nesterov momentum. */
    public int stateLength() {
        return rule == Rule.NESTEROVS ? length : 0;
    }
}
