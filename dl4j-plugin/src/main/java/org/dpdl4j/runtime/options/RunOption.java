package org.dpdl4j.runtime.options;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A setting a run can be given: its command-line name, its value type and valid range, what it means, and what
 * changing it between a run and its resume means. Options are declared once, by the component that reads them
 * (the shared ones in {@link RunOptions}, a protocol's own in its package), and everything else (the command line,
 * help, validation, config files, checkpoints) is derived from the declaration.
 *
 * @param name        the long name without dashes, e.g. {@code clip}
 * @param label       the value's placeholder in help, e.g. {@code C}
 * @param description one or two sentences for help
 * @param type        how the text is parsed and checked
 * @param resumeRule  what changing it on resume means
 * @param <T>         the value class
 */
public record RunOption<T>(String name, String label, String description, ValueType<T> type, ResumeRule resumeRule) {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

    public RunOption {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(resumeRule, "resume rule");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("option name '" + name + "' must be lower-case words joined by '-', e.g. noise-multiplier");
        }
    }

    /** An option of the given type. */
    public static <T> RunOption<T> of(String name, String label, ValueType<T> type, ResumeRule rule, String description) {
        return new RunOption<>(name, label, description, type, rule);
    }

    /** The command-line form, {@code --name}. */
    public String flag() {
        return "--" + name;
    }

    /**
     * The value of a text.
     *
     * @throws InvalidOptionException naming the option, the value, the valid range and the fix
     */
    public T parse(String text) {
        Objects.requireNonNull(text, "text");
        try {
            return type.parser().apply(text);
        } catch (InvalidOptionException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException(flag(), flag() + " " + text.trim() + ": " + e.getMessage()
                    + " (" + flag() + " " + label + ": " + description + ")");
        }
    }

    /** The canonical text of a value (parses back to the same value). */
    public String format(T value) {
        return type.formatter().apply(value);
    }

    /** An error about this option that is not about the form of its value. */
    public InvalidOptionException invalid(String message) {
        return new InvalidOptionException(flag(), message);
    }

    @Override
    public String toString() {
        return flag();
    }
}
