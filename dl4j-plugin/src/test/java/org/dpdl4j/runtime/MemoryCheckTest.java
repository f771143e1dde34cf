package org.dpdl4j.runtime;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.bytedeco.javacpp.Pointer;
import org.junit.jupiter.api.Test;

class MemoryCheckTest {
    private static final double GB = 1e9;

    /** A run of {@code machines} machines, 1 GB of native memory and 10 MB of heap each. */
    private static MemoryEstimate machines(long machines) {
        return MemoryEstimate.of("a run with " + machines + " machines")
                .arrays("the machines' models", machines, 250_000_000, 4)
                .heap("their objects", machines * 10e6)
                .knob("--machines", "machines", machines, MemoryCheckTest::machines)
                .fix("a smaller model")
                .build();
    }

    /**
     * Limits where {@code room} is what the binding limit leaves: maxbytes' room, or the resident room that
     * maxphysicalbytes (twice the room) or the machine leaves; the others are far away.
     */
    private static MemoryLimits limits(double heapFree, double room, MemoryLimits.Binding binding, double machine) {
        boolean offHeap = binding == MemoryLimits.Binding.MAX_BYTES;
        MemoryLimits.Binding resident = binding == MemoryLimits.Binding.MACHINE ? binding : MemoryLimits.Binding.MAX_PHYSICAL_BYTES;
        return new MemoryLimits(heapFree, 4 * GB, offHeap ? room : 1000 * GB, offHeap ? 1000 * GB : room, resident,
                resident == MemoryLimits.Binding.MACHINE ? room : 2 * room, offHeap ? room : 0, false, machine);
    }

    private static String refusal(MemoryEstimate estimate, MemoryLimits limits) {
        return assertThrows(IllegalArgumentException.class, () -> MemoryCheck.require(estimate, limits)).getMessage();
    }

    @Test
    void aRunThatFitsPasses() {
        assertDoesNotThrow(() -> MemoryCheck.require(machines(10), limits(1 * GB, 10.5 * GB, MemoryLimits.Binding.MAX_BYTES, 64 * GB)));
    }

    @Test
    void aRunBeyondNativeMemorySaysWhatItNeedsWhatThereIsAndHowManyMachinesFit() {
        String m = refusal(machines(20), limits(1 * GB, 10.5 * GB, MemoryLimits.Binding.MAX_BYTES, 64 * GB));
        assertTrue(m.startsWith("a run with 20 machines needs about 20.2 GB of native memory for ND4J (the machines' models 20.0 GB)"), m);
        assertTrue(m.contains("but this JVM may use 10.5 GB more (-Dorg.bytedeco.javacpp.maxbytes)"), m);
        assertTrue(m.contains("use at most 10 machines (--machines 10), or a smaller model, or give the JVM more memory:"
                + " DPDL4J_JAVA_OPTS=\"-Xmx4g -Dorg.bytedeco.javacpp.maxbytes=25g\""), m);
    }

    @Test
    void theHeapIsCheckedToo() {
        String m = refusal(machines(20), limits(0.15 * GB, 100 * GB, MemoryLimits.Binding.MAX_BYTES, 256 * GB));
        assertTrue(m.contains("needs about 200.0 MB of Java heap (their objects 200.0 MB)"), m);
        assertTrue(m.contains("this JVM has 150.0 MB of heap free (-Xmx)"), m);
        assertTrue(m.contains("at most 15 machines (--machines 15)"), m);
        assertTrue(m.contains("-Xmx5g"), m);
    }

    @Test
    void eachBindingLimitIsNamed() {
        String physical = refusal(machines(20), limits(1 * GB, 10.5 * GB, MemoryLimits.Binding.MAX_PHYSICAL_BYTES, 64 * GB));
        assertTrue(physical.contains("needs about 20.4 GB of memory (the machines' models 20.0 GB)"), physical);
        assertTrue(physical.contains("at most 10 machines (--machines 10)"), physical);
        assertTrue(physical.contains("JavaCPP stops this process at 21.0 GB resident (-Dorg.bytedeco.javacpp.maxphysicalbytes,"
                + " by default maxbytes + 3 x -Xmx), which leaves 10.5 GB"), physical);
        String machine = refusal(machines(20), limits(1 * GB, 10.5 * GB, MemoryLimits.Binding.MACHINE, 64 * GB));
        assertTrue(machine.contains("this machine has 10.5 GB of memory available"), machine);
        assertTrue(machine.endsWith("or free memory on this machine (other processes hold most of it)"), machine);
    }

    @Test
    void aPhysicalLimitThatWasSetIsRaisedWithMaxBytes() {
        MemoryLimits set = new MemoryLimits(1 * GB, 4 * GB, 1000 * GB, 10.5 * GB, MemoryLimits.Binding.MAX_PHYSICAL_BYTES, 21 * GB,
                8 * GB, true, 64 * GB);
        String m = refusal(machines(20), set);
        assertTrue(m.endsWith("DPDL4J_JAVA_OPTS=\"-Xmx4g -Dorg.bytedeco.javacpp.maxbytes=25g"
                + " -Dorg.bytedeco.javacpp.maxphysicalbytes=31g\""), m);
    }

    @Test
    void aRunLargerThanTheMachineIsNotSentToTheJvmOptions() {
        String m = refusal(machines(100), limits(10 * GB, 10.5 * GB, MemoryLimits.Binding.MAX_BYTES, 64 * GB));
        assertTrue(m.endsWith("or run it on a machine with more than 101.2 GB of memory (this one has 64.0 GB)"), m);
        assertTrue(!m.contains("DPDL4J_JAVA_OPTS"), m);
    }

    @Test
    void whenNoValueOfAKnobFitsItIsNotOffered() {
        String m = refusal(machines(20), limits(1 * GB, 0.5 * GB, MemoryLimits.Binding.MAX_BYTES, 64 * GB));
        assertTrue(m.contains("; use a smaller model, or give"), m);
    }

    @Test
    void theLargestPartsComeFirstAndTinyOnesAreLeftOut() {
        MemoryEstimate e = MemoryEstimate.of("x").add("small", 1e6, 0).add("large", 3e9, 0).add("medium", 1e9, 5e8).build();
        assertEquals("large 3.0 GB, medium 1.5 GB, ND4J's and the JVM's working memory 150.0 MB", e.largestParts());
        assertEquals(4.001e9 + MemoryEstimate.WORKING_MEMORY, e.nativeBytes(), 1);
        assertEquals(5e8, e.heapBytes(), 1);
    }

    @Test
    void theLimitsOfThisJvmAreMaxBytesAndTheLeastOfThePhysicalLimitAndTheMachine() {
        MemoryLimits now = MemoryLimits.current();
        assertTrue(now.heapFree() > 0 && now.heapFree() <= Runtime.getRuntime().maxMemory(), now.toString());
        if (Pointer.maxBytes() > 0) {
            assertTrue(now.offHeapFree() <= Pointer.maxBytes(), now.toString());
        }
        if (Pointer.maxPhysicalBytes() > 0) {
            assertTrue(now.residentFree() <= Pointer.maxPhysicalBytes() - Pointer.physicalBytes() + 1e8, now.toString());
        }
        assertTrue(now.residentFree() <= Pointer.availablePhysicalBytes() + 1e8, now.toString());
    }
}
