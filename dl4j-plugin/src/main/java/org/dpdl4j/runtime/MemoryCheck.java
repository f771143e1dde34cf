package org.dpdl4j.runtime;

import java.util.Locale;
import org.bytedeco.javacpp.Pointer;

/**
 * Checks, before a run allocates its stacked arrays, that they fit in this JVM: the Java heap (for matrices the
 * set-up builds as Java arrays) and the native memory ND4J allocates from (bounded by JavaCPP's
 * {@code org.bytedeco.javacpp.maxbytes}). A run that does not fit is refused with what it needs, what there is and
 * what would fit, instead of failing later with an {@link OutOfMemoryError}.
 */
public final class MemoryCheck {
    private MemoryCheck() {
    }

    /**
     * @param what         what is being allocated, e.g. "the models of 100000 nodes"
     * @param heapBytes    Java heap it needs
     * @param nativeBytes  native (ND4J) memory it needs
     * @param fix          what the user can change
     * @throws IllegalArgumentException when it does not fit
     */
    public static void requireFits(String what, double heapBytes, double nativeBytes, String fix) {
        Runtime rt = Runtime.getRuntime();
        double heapFree = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        long max = Pointer.maxBytes();
        double nativeFree = max > 0 ? max - Pointer.totalBytes() : Double.POSITIVE_INFINITY;
        if (heapBytes > heapFree) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s need about %s of Java heap, but this JVM has %s"
                    + " free (-Xmx); %s", what, size(heapBytes), size(heapFree), fix));
        }
        if (nativeBytes > nativeFree) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s need about %s of native memory for ND4J, but"
                    + " this JVM may use %s more (-Dorg.bytedeco.javacpp.maxbytes); %s", what, size(nativeBytes),
                    size(nativeFree), fix));
        }
    }

    /** Bytes as "1.2 GB". */
    public static String size(double bytes) {
        if (bytes >= 1e9) {
            return String.format(Locale.ROOT, "%.1f GB", bytes / 1e9);
        }
        if (bytes >= 1e6) {
            return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
        }
        return String.format(Locale.ROOT, "%.0f kB", bytes / 1e3);
    }
}
