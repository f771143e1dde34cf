package org.dpdl4j.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one check of a run's {@link MemoryEstimate} against what this JVM has ({@link MemoryLimits}), made before the run
 * allocates anything large and before it writes any file. A run that does not fit is refused with what it needs, what
 * there is and what would fit (lower settings, a smaller model, or more memory for the JVM), instead of failing later
 * with an {@link OutOfMemoryError}, a native allocation failure, or the kernel killing the process.
 */
public final class MemoryCheck {
    private static final double GIB = 1L << 30;

    private MemoryCheck() {
    }

    /**
     * @throws IllegalArgumentException when the estimate does not fit in this JVM
     */
    public static void require(MemoryEstimate estimate) {
        require(estimate, MemoryLimits.current());
    }

    /**
     * @throws IllegalArgumentException when the estimate does not fit in {@code limits}
     */
    public static void require(MemoryEstimate estimate, MemoryLimits limits) {
        MemoryLimits.Binding exceeded = limits.exceeded(estimate);
        if (exceeded == null) {
            return;
        }
        String need = switch (exceeded) {
            case HEAP -> "about " + size(estimate.heapBytes()) + " of Java heap ("
                    + estimate.largestParts(MemoryEstimate.Part::heapBytes) + ")";
            case MAX_BYTES -> "about " + size(estimate.nativeBytes()) + " of native memory for ND4J ("
                    + estimate.largestParts(MemoryEstimate.Part::nativeBytes) + ")";
            default -> "about " + size(estimate.nativeBytes() + estimate.heapBytes()) + " of memory (" + estimate.largestParts() + ")";
        };
        throw new IllegalArgumentException(estimate.subject() + " needs " + need + ", but " + room(exceeded, limits) + "; "
                + fixes(estimate, limits, exceeded));
    }

    /** What there is, in the words of the limit that binds. */
    private static String room(MemoryLimits.Binding exceeded, MemoryLimits limits) {
        return switch (exceeded) {
            case HEAP -> String.format(Locale.ROOT, "this JVM has %s of heap free (-Xmx)", size(limits.heapFree()));
            case MAX_BYTES -> String.format(Locale.ROOT, "this JVM may use %s more (-Dorg.bytedeco.javacpp.maxbytes)",
                    size(limits.offHeapFree()));
            case MAX_PHYSICAL_BYTES -> String.format(Locale.ROOT, "JavaCPP stops this process at %s resident"
                    + " (-Dorg.bytedeco.javacpp.maxphysicalbytes, by default maxbytes + 3 x -Xmx), which leaves %s",
                    size(limits.residentLimit()), size(limits.residentFree()));
            case MACHINE -> String.format(Locale.ROOT, "this machine has %s of memory available", size(limits.residentFree()));
        };
    }

    /** The lower settings that fit, the estimate's other fixes, and the memory the JVM would need. */
    private static String fixes(MemoryEstimate estimate, MemoryLimits limits, MemoryLimits.Binding exceeded) {
        List<String> out = new ArrayList<>();
        for (MemoryEstimate.Knob k : estimate.knobs()) {
            long fits = largestFitting(k, limits);
            if (fits >= k.least()) {
                out.add(String.format(Locale.ROOT, "at most %d %s (%s %d)", fits, k.noun(), k.flag(), fits));
            }
        }
        out.addAll(estimate.fixes());
        String lower = out.isEmpty() ? "" : "use " + String.join(", or ", out) + ", or ";
        double total = estimate.heapBytes() + estimate.nativeBytes();
        if (limits.machineTotal() > 0 && total > 0.9 * limits.machineTotal()) {
            return lower + "run it on a machine with more than " + size(total) + " of memory (this one has "
                    + size(limits.machineTotal()) + ")";
        }
        if (exceeded == MemoryLimits.Binding.MACHINE) {
            return lower + "free memory on this machine (other processes hold most of it)";
        }
        return lower + "give the JVM more memory: DPDL4J_JAVA_OPTS=\"" + javaOptions(estimate, limits) + "\"";
    }

    /** -Xmx and maxbytes with room for the estimate (a quarter more, whole GiB, never below the current ones). */
    private static String javaOptions(MemoryEstimate estimate, MemoryLimits limits) {
        long heap = Math.max(gib(limits.heapMax()), gib(1.25 * (limits.heapMax() - limits.heapFree() + estimate.heapBytes())));
        long offHeap = Math.max(gib(limits.maxBytes()), gib(1.25 * estimate.nativeBytes()) + 1);
        String options = "-Xmx" + heap + "g -Dorg.bytedeco.javacpp.maxbytes=" + offHeap + "g";
        if (limits.physicalSet()) {
            options += " -Dorg.bytedeco.javacpp.maxphysicalbytes=" + (heap + offHeap + 2) + "g";
        }
        return options;
    }

    /** The largest value of the knob, below its current one, whose estimate fits; below its least when none does. */
    private static long largestFitting(MemoryEstimate.Knob knob, MemoryLimits limits) {
        long lo = knob.least() - 1;
        long hi = knob.value() - 1;
        while (lo < hi) {
            long mid = lo + (hi - lo + 1) / 2;
            if (limits.fits(knob.at().apply(mid))) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    private static long gib(double bytes) {
        return (long) Math.ceil(bytes / GIB);
    }

    /** Bytes as "1.2 GB". */
    public static String size(double bytes) {
        if (bytes >= 1e12) {
            return String.format(Locale.ROOT, "%.1f TB", bytes / 1e12);
        }
        if (bytes >= 1e9) {
            return String.format(Locale.ROOT, "%.1f GB", bytes / 1e9);
        }
        if (bytes >= 1e6) {
            return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
        }
        return String.format(Locale.ROOT, "%.0f kB", bytes / 1e3);
    }
}
