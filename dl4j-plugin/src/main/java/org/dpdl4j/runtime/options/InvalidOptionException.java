package org.dpdl4j.runtime.options;

/**
 * A setting whose value is not allowed, or that does not apply: the message names the option, the value, what is
 * wrong and what to do.
 */
public final class InvalidOptionException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String option;

    public InvalidOptionException(String option, String message) {
        super(message);
        this.option = option;
    }

    /** The option's command-line name, e.g. {@code --clip}. */
    public String option() {
        return option;
    }
}
