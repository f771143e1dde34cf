package org.dpdl4j.models;

/** Argument checks whose messages name the parameter, the value and the fix. */
final class Arguments {
    private Arguments() {
    }

    static int positive(String model, String parameter, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(model + ": " + parameter + " must be a positive integer, got "
                    + value);
        }
        if (value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(model + ": " + parameter + " = " + value
                    + " exceeds the largest layer size DL4J supports (" + Integer.MAX_VALUE + ")");
        }
        return (int) value;
    }
}
