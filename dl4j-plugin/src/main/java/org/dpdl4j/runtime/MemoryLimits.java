package org.dpdl4j.runtime;

import org.bytedeco.javacpp.Pointer;

/**
 * What memory a run may still take in this JVM: Java heap, native memory for ND4J's arrays, and resident memory for
 * both.
 *
 * <p>ND4J 1.0.0-M2.1 allocates its arrays on the CPU in its native library, outside JavaCPP's count: JavaCPP's
 * {@code maxbytes} limit never stops them, and {@link Pointer#totalBytes()} does not grow with them. {@code maxbytes}
 * is still the limit users set for off-heap memory, so a run's native arrays must fit in it. What does stop a process
 * is JavaCPP's physical-memory check (every new array looks at the resident size and, above
 * {@code maxphysicalbytes}, collects garbage and then fails) and the machine itself, whose kernel kills a process that
 * takes more than it has: a run's native arrays and the heap it adds must fit in the least of the two.
 *
 * @param heapFree         heap bytes this JVM may still use (-Xmx less the heap in use)
 * @param heapMax          the heap limit (-Xmx)
 * @param offHeapFree      native bytes {@code maxbytes} still grants (+infinity when it is off)
 * @param residentFree     resident bytes the process may still grow by: what {@code maxphysicalbytes} leaves, or what
 *                         the machine has available, whichever is less
 * @param residentBinding  which of the two that is ({@link Binding#MAX_PHYSICAL_BYTES} or {@link Binding#MACHINE})
 * @param residentLimit    its own value: maxphysicalbytes, or the memory the machine has available
 * @param maxBytes         JavaCPP's maxbytes (0 when off)
 * @param physicalSet      whether maxphysicalbytes was set rather than derived from maxbytes and -Xmx (then raising
 *                         maxbytes does not raise it)
 * @param machineTotal     the machine's physical memory (0 when unknown)
 */
public record MemoryLimits(double heapFree, double heapMax, double offHeapFree, double residentFree, Binding residentBinding,
                           double residentLimit, double maxBytes, boolean physicalSet, double machineTotal) {

    /** Which limit a run exceeds. */
    public enum Binding {
        /** -Xmx. */
        HEAP,
        /** {@code -Dorg.bytedeco.javacpp.maxbytes}. */
        MAX_BYTES,
        /** {@code -Dorg.bytedeco.javacpp.maxphysicalbytes}, by default maxbytes + 3 x -Xmx. */
        MAX_PHYSICAL_BYTES,
        /** The memory the machine has available. */
        MACHINE
    }

    /** The limits of this JVM now. */
    public static MemoryLimits current() {
        Runtime rt = Runtime.getRuntime();
        double heapUsed = rt.totalMemory() - rt.freeMemory();
        double offHeap = Pointer.maxBytes() > 0 ? Pointer.maxBytes() - Pointer.totalBytes() : Double.POSITIVE_INFINITY;
        double byPhysical = Pointer.maxPhysicalBytes() > 0 ? Pointer.maxPhysicalBytes() - Pointer.physicalBytes()
                : Double.POSITIVE_INFINITY;
        double available = Pointer.availablePhysicalBytes() > 0 ? Pointer.availablePhysicalBytes() : Double.POSITIVE_INFINITY;
        boolean machine = available < byPhysical;
        return new MemoryLimits(rt.maxMemory() - heapUsed, rt.maxMemory(), Math.max(0, offHeap), Math.max(0, Math.min(byPhysical, available)),
                machine ? Binding.MACHINE : Binding.MAX_PHYSICAL_BYTES, machine ? available : Pointer.maxPhysicalBytes(),
                Math.max(0, Pointer.maxBytes()), System.getProperty("org.bytedeco.javacpp.maxphysicalbytes") != null,
                Math.max(0, Pointer.totalPhysicalBytes()));
    }

    /** The limit an estimate exceeds, or null when it fits. */
    public Binding exceeded(MemoryEstimate estimate) {
        if (estimate.heapBytes() > heapFree) {
            return Binding.HEAP;
        }
        if (estimate.nativeBytes() > offHeapFree) {
            return Binding.MAX_BYTES;
        }
        return estimate.nativeBytes() + estimate.heapBytes() > residentFree ? residentBinding : null;
    }

    /** Whether an estimate fits. */
    public boolean fits(MemoryEstimate estimate) {
        return exceeded(estimate) == null;
    }
}
