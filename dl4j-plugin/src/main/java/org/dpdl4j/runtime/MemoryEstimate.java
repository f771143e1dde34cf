package org.dpdl4j.runtime;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.LongFunction;
import java.util.function.ToDoubleFunction;

/**
 * What a run will hold in memory at its largest, part by part, worked out from its settings and the sizes of its
 * inputs before it allocates anything large, so that {@link MemoryCheck} can refuse a run that does not fit with what
 * it needs, what there is and what would fit.
 *
 * <p>A part counts what stays allocated for the whole run (models, optimizer state, noise buffers, the parties' data)
 * or what one step allocates (gradients, a batch's activations, temporaries): ND4J returns an array's native memory
 * only when the Java garbage collector finds the array unreachable, and nothing makes it run while the heap is calm,
 * so a step's temporaries are held together unless they live in a workspace that is reused.
 *
 * @param subject what runs, e.g. "dp-fedavg-central with 60000 clients of a 101,898-parameter model"
 * @param parts   the parts, each on the Java heap and/or in native (ND4J) memory
 * @param knobs   settings whose lower values need less, for the "what would fit" of a refusal
 * @param fixes   other changes that need less, in the user's terms (e.g. "a smaller model (--hidden)")
 */
public record MemoryEstimate(String subject, List<Part> parts, List<Knob> knobs, List<String> fixes) {
    /**
     * What a run takes besides its arrays, as measured in a fresh JVM: the code ND4J and DL4J load and compile, their
     * caches, and the C library's memory pools of the threads that run ND4J operations (50 to 150 MB).
     */
    static final double WORKING_MEMORY = 150e6;

    public MemoryEstimate {
        Objects.requireNonNull(subject, "subject");
        parts = List.copyOf(parts);
        knobs = List.copyOf(knobs);
        fixes = List.copyOf(fixes);
    }

    /**
     * One part of a run's memory.
     *
     * @param what        what it is, e.g. "the clients' models"
     * @param nativeBytes bytes of native (ND4J) memory
     * @param heapBytes   bytes of Java heap
     */
    public record Part(String what, double nativeBytes, double heapBytes) {
        public Part {
            Objects.requireNonNull(what, "what");
            if (!(nativeBytes >= 0) || !(heapBytes >= 0)) {
                throw new IllegalArgumentException(what + ": bytes must be >= 0, got " + nativeBytes + " native and "
                        + heapBytes + " heap");
            }
        }

        /** Heap and native bytes. */
        public double bytes() {
            return nativeBytes + heapBytes;
        }
    }

    /**
     * A setting whose lower values need less memory.
     *
     * @param flag  its option, e.g. {@code --machines}
     * @param noun  what it counts, for "use at most 800 machines"
     * @param least its smallest valid value
     * @param value its value in this run
     * @param at    the estimate of the same run with another value ({@code least} to {@code value})
     */
    public record Knob(String flag, String noun, long least, long value, LongFunction<MemoryEstimate> at) {
        public Knob {
            Objects.requireNonNull(flag, "flag");
            Objects.requireNonNull(noun, "noun");
            Objects.requireNonNull(at, "estimate at another value");
        }
    }

    /** Starts the estimate of {@code subject}. */
    public static Builder of(String subject) {
        return new Builder(subject);
    }

    /** Native (ND4J) bytes in all. */
    public double nativeBytes() {
        return parts.stream().mapToDouble(Part::nativeBytes).sum();
    }

    /** Java heap bytes in all. */
    public double heapBytes() {
        return parts.stream().mapToDouble(Part::heapBytes).sum();
    }

    /** The same estimate with one more part. */
    public MemoryEstimate plus(Part part) {
        List<Part> more = new ArrayList<>(parts);
        more.add(part);
        return new MemoryEstimate(subject, more, knobs, fixes);
    }

    /** The largest parts first, e.g. "the clients' models 24.5 GB, gradients 24.5 GB", leaving out those below 1%. */
    public String largestParts() {
        return largestParts(Part::bytes);
    }

    /** The same, counting each part's {@code bytes} (its heap or its native bytes). */
    public String largestParts(ToDoubleFunction<Part> bytes) {
        double total = parts.stream().mapToDouble(bytes).sum();
        List<String> shown = parts.stream().filter(p -> bytes.applyAsDouble(p) > 0 && bytes.applyAsDouble(p) >= 0.01 * total)
                .sorted(Comparator.comparingDouble(bytes).reversed()).limit(5)
                .map(p -> p.what() + " " + MemoryCheck.size(bytes.applyAsDouble(p))).toList();
        return String.join(", ", shown);
    }

    /** Collects the parts, knobs and fixes of an estimate. */
    public static final class Builder {
        private final String subject;
        private final List<Part> parts = new ArrayList<>();
        private final List<Knob> knobs = new ArrayList<>();
        private final List<String> fixes = new ArrayList<>();

        private Builder(String subject) {
            this.subject = subject;
        }

        /** Native (ND4J) memory: {@code count} arrays of {@code values} values of {@code valueBytes} bytes each. */
        public Builder arrays(String what, double count, double values, int valueBytes) {
            return add(what, count * values * valueBytes, 0);
        }

        /** Java heap memory. */
        public Builder heap(String what, double bytes) {
            return add(what, 0, bytes);
        }

        /** Adds a part with native and heap bytes; a part of no bytes is left out. */
        public Builder add(String what, double nativeBytes, double heapBytes) {
            if (nativeBytes > 0 || heapBytes > 0) {
                parts.add(new Part(what, nativeBytes, heapBytes));
            }
            return this;
        }

        /** A setting whose lower values, down to 1, need less (see {@link Knob}). */
        public Builder knob(String flag, String noun, long value, LongFunction<MemoryEstimate> at) {
            return knob(flag, noun, 1, value, at);
        }

        /** A setting whose lower values, down to {@code least}, need less (see {@link Knob}). */
        public Builder knob(String flag, String noun, long least, long value, LongFunction<MemoryEstimate> at) {
            knobs.add(new Knob(flag, noun, least, value, at));
            return this;
        }

        /** Another change that needs less, in the user's terms. */
        public Builder fix(String fix) {
            fixes.add(fix);
            return this;
        }

        /** The estimate, with the working memory every run takes besides its arrays. */
        public MemoryEstimate build() {
            List<Part> all = new ArrayList<>(parts);
            all.add(new Part("ND4J's and the JVM's working memory", WORKING_MEMORY, 0));
            return new MemoryEstimate(subject, all, knobs, fixes);
        }
    }
}
