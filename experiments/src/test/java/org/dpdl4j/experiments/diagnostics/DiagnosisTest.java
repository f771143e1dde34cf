package org.dpdl4j.experiments.diagnostics;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DiagnosisTest {
    private static final long GIB = 1L << 30;

    private static RuntimeFacts facts(String ompVariable, int ompThreads, int cores, long heap, long offHeap, long physical,
                                      long machine, List<Integer> gpus) {
        return new RuntimeFacts("17", "vm", "/jdk", "backend", gpus.isEmpty(), List.of("device"), gpus, "OPENBLAS",
                ompVariable, ompThreads, cores, heap, offHeap, physical, machine, machine / 2);
    }

    @Test
    void aSoundSetupHasNoWarnings() {
        assertEquals(List.of(), Diagnosis.warnings(facts("1", 1, 2, 4 * GIB, 4 * GIB, 16 * GIB, 24 * GIB, List.of())));
    }

    @Test
    void eachKnownProblemIsNamedWithItsFix() {
        List<String> w = Diagnosis.warnings(facts(null, 8, 2, 16 * GIB, 16 * GIB, 0, 24 * GIB, List.of(86, 90)));
        assertEquals(5, w.size(), String.join("\n", w));
        assertTrue(w.get(0).contains("OMP_NUM_THREADS is not set"), w.get(0));
        assertTrue(w.get(1).contains("8 OpenMP threads on 2 cores") && w.get(1).contains("OMP_NUM_THREADS to 2"), w.get(1));
        assertTrue(w.get(2).contains("physical-memory check is off"), w.get(2));
        assertTrue(w.get(3).contains("more than the machine's 24.0 GiB") && w.get(3).contains("DPDL4J_JAVA_OPTS"), w.get(3));
        assertTrue(w.get(4).contains("compute capability 9.0") && !w.get(4).contains("8.6 is"), w.get(4));
    }

    @Test
    void byteCountsReadAsPeopleWriteThem() {
        assertEquals("512 B", Bytes.format(512));
        assertEquals("1.5 KiB", Bytes.format(1536));
        assertEquals("4.0 GiB", Bytes.format(4 * GIB));
        assertEquals("unknown", Bytes.format(-1));
    }
}
