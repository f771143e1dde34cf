package org.dpdl4j.runtime;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The part of a run's state a protocol needs to continue: named arrays (models, estimates, optimizer moments) and
 * named numbers (counters). Every random stream of a protocol is keyed by (seed, purpose, party, round), or is
 * replayed from the step count, so nothing else is needed. Arrays are copies, detached from any workspace.
 */
public final class RunState {
    private final Map<String, INDArray> arrays;
    private final Map<String, String> numbers;

    private RunState(Map<String, INDArray> arrays, Map<String, String> numbers) {
        this.arrays = Collections.unmodifiableMap(arrays);
        this.numbers = Collections.unmodifiableMap(numbers);
    }

    /** A builder of a state. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts with this state's arrays and numbers (a subclass's state adds its own to its parent's). */
    public Builder toBuilder() {
        Builder b = new Builder();
        arrays.forEach(b::array);
        numbers.forEach(b::raw);
        return b;
    }

    /** The named arrays, in the order they were put. */
    public Map<String, INDArray> arrays() {
        return arrays;
    }

    /** The named numbers as text (exact: longs as integers, doubles in their shortest exact form). */
    public Map<String, String> numbers() {
        return numbers;
    }

    /**
     * An array the protocol saved.
     *
     * @throws IllegalArgumentException naming the missing array and the ones present
     */
    public INDArray array(String name) {
        INDArray a = arrays.get(name);
        if (a == null) {
            throw new IllegalArgumentException("the saved state has no array '" + name + "' (it holds " + arrays.keySet()
                    + "): it was saved by another protocol or another version");
        }
        return a;
    }

    /** An array with the given shape. */
    public INDArray array(String name, long... shape) {
        INDArray a = array(name);
        if (!Arrays.equals(a.shape(), shape)) {
            throw new IllegalArgumentException("the saved array '" + name + "' has shape " + Arrays.toString(a.shape())
                    + " but this run's has shape " + Arrays.toString(shape) + ": the checkpoint is of another model or"
                    + " another number of parties");
        }
        return a;
    }

    public long longValue(String name) {
        try {
            return Long.parseLong(number(name));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the saved number '" + name + "' is not an integer: " + number(name));
        }
    }

    public double doubleValue(String name) {
        try {
            return Double.parseDouble(number(name));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the saved number '" + name + "' is not a number: " + number(name));
        }
    }

    private String number(String name) {
        String v = numbers.get(name);
        if (v == null) {
            throw new IllegalArgumentException("the saved state has no number '" + name + "' (it holds " + numbers.keySet()
                    + "): it was saved by another protocol or another version");
        }
        return v;
    }

    /** Builds a {@link RunState}; arrays are copied when put. */
    public static final class Builder {
        private final Map<String, INDArray> arrays = new LinkedHashMap<>();
        private final Map<String, String> numbers = new LinkedHashMap<>();

        private Builder() {
        }

        public Builder array(String name, INDArray value) {
            Objects.requireNonNull(value, name);
            try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
                arrays.put(checked(name), value.dup());
            }
            return this;
        }

        public Builder number(String name, long value) {
            numbers.put(checked(name), Long.toString(value));
            return this;
        }

        public Builder number(String name, double value) {
            numbers.put(checked(name), Double.toString(value));
            return this;
        }

        /** Adds a state read back from a file, as it was saved. */
        Builder raw(String name, String value) {
            numbers.put(checked(name), value);
            return this;
        }

        private String checked(String name) {
            if (name == null || name.isBlank() || arrays.containsKey(name) || numbers.containsKey(name)) {
                throw new IllegalArgumentException("state entry names must be distinct and non-blank, got '" + name + "'");
            }
            return name;
        }

        public RunState build() {
            return new RunState(new LinkedHashMap<>(arrays), new LinkedHashMap<>(numbers));
        }
    }
}
