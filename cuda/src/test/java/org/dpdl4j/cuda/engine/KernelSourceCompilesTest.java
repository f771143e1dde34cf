package org.dpdl4j.cuda.engine;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The kernel source compiles for Hopper (sm_90) with the options the engine gives NVRTC, and defines every kernel the
 * engine launches. NVRTC needs the CUDA libraries, so this uses nvcc (the same front end) where it is on the PATH.
 */
class KernelSourceCompilesTest {

    @Test
    void compilesForSm90WithEveryKernel(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path nvcc = onPath("nvcc");
        assumeTrue(nvcc != null, "needs nvcc on the PATH to compile the CUDA kernels (a CUDA toolkit)");
        Path source = dir.resolve(KernelSource.NAME);
        Files.writeString(source, KernelSource.text());
        Path ptx = dir.resolve("dp_step.ptx");
        List<String> command = new ArrayList<>(List.of(nvcc.toString(), "-ptx", "-arch=sm_90"));
        command.addAll(List.of(KernelSource.OPTIONS));
        command.addAll(List.of("-o", ptx.toString(), source.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "nvcc did not finish in 2 minutes");
        assertEquals(0, p.exitValue(), "nvcc failed:\n" + log);
        String text = Files.readString(ptx);
        for (String kernel : KernelSource.KERNELS) {
            assertTrue(text.contains(".entry " + kernel + "("), "no kernel " + kernel + " in the compiled source");
        }
        assertTrue(!text.contains("fma.rn.f32"), "a float multiply-add was fused although --fmad=false");
    }

    private static Path onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String d : path.split(File.pathSeparator)) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
