package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BackendFailureTest {
    @Test
    void aCudaBuildWithoutADriverSaysSoAndHowToGoBackToTheCpu() {
        // What the CUDA backend throws from Nd4j's static initialiser on a machine without an NVIDIA driver.
        Throwable t = new ExceptionInInitializerError(new RuntimeException("Could not load backend",
                new UnsatisfiedLinkError("/tmp/javacpp/libjnind4jcuda.so: libcuda.so.1: cannot open shared object file")));
        String m = BackendFailure.describe(t).orElseThrow();
        assertTrue(m.contains("built with the CUDA backend") && m.contains("libcuda.so.1"), m);
        assertTrue(m.contains("compute capability 3.7 to 8.6") && m.contains("rebuild without -Dcuda"), m);
    }

    @Test
    void aMissingCpuLibraryPointsToThePlatformAndDoctor() {
        String m = BackendFailure.describe(new UnsatisfiedLinkError("no jnind4jcpu in java.library.path")).orElseThrow();
        assertTrue(m.contains("native backend could not be loaded") && m.contains("dpdl4j doctor"), m);
    }

    @Test
    void otherErrorsAreNotBackendFailures() {
        assertTrue(BackendFailure.describe(new IllegalArgumentException("--epsilon must be > 0")).isEmpty());
        assertTrue(BackendFailure.describe(new NoSuchMethodError("org.example.Foo.bar()")).isEmpty());
    }
}
