package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code dpdl4j} launcher on a machine with an NVIDIA driver but no cuBLAS 13 on the library path puts the CUDA
 * libraries of the machine's PyTorch (its nvidia-* pip packages) on LD_LIBRARY_PATH for the CUDA engine; it leaves
 * the path alone without a driver, when cuBLAS 13 is already there, or when told not to. Runs the launcher itself with
 * a stand-in {@code java} that prints the path it was given, a stand-in driver tool, and a pip package tree.
 */
class LauncherCudaLibrariesTest {
    @TempDir
    Path dir;

    @Test
    void theLauncherTakesPyTorchsCudaLibrariesOnlyWhereTheyAreMissing() throws Exception {
        Path python = interpreter();
        assumeTrue(python != null, "needs python3 on the PATH");
        Path root = Files.createDirectories(dir.resolve("dpdl4j"));
        Path repository = Path.of("..").toAbsolutePath().normalize();
        Process own = new ProcessBuilder("python3", repository.resolve("gpu/cuda_libraries.py").toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String ownLibraries = new String(own.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        own.waitFor();
        assumeTrue(ownLibraries.isEmpty(), "this machine's python has pip CUDA libraries of its own (" + ownLibraries
                + "), which the stand-in tree cannot hide");
        Files.copy(repository.resolve("dpdl4j"), root.resolve("dpdl4j"));
        Files.createDirectories(root.resolve("gpu"));
        Files.copy(repository.resolve("gpu/cuda_libraries.py"), root.resolve("gpu/cuda_libraries.py"));
        Files.createDirectories(root.resolve("cli/target/lib"));
        Files.writeString(root.resolve("cli/target/dpdl4j.jar"), "");   // built: the launcher does not build
        Path site = Files.createDirectories(dir.resolve("site-packages"));
        Path pipLib = Files.createDirectories(site.resolve("nvidia/cu13/lib"));
        Files.writeString(pipLib.resolve("libcublas.so.13"), "");
        Path withDriver = Files.createDirectories(dir.resolve("with-driver"));
        Path noDriver = Files.createDirectories(dir.resolve("no-driver"));
        // the launcher's PATH holds these alone (no machine's own nvidia-smi, ldconfig or java can answer instead)
        for (Path bin : new Path[]{withDriver, noDriver}) {
            script(bin.resolve("java"), "echo \"LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}\"");
            script(bin.resolve("ldconfig"), "exit 0");   // a library cache without cuBLAS 13
            for (String tool : new String[]{"dirname", "find"}) {
                Path found = onPath(tool);
                assumeTrue(found != null, "needs " + tool + " on the PATH");
                script(bin.resolve(tool), "exec '" + found + "' \"$@\"");
            }
            script(bin.resolve("python3"), "exec '" + python + "' \"$@\"");
        }
        script(withDriver.resolve("nvidia-smi"), "exit 0");
        String found = pipLib.toRealPath().toString();

        assertEquals("LD_LIBRARY_PATH=" + found, launch(root, withDriver, site, Map.of()));
        assertEquals("LD_LIBRARY_PATH=" + found + ":/opt/other", launch(root, withDriver, site,
                Map.of("LD_LIBRARY_PATH", "/opt/other")));
        assertEquals("LD_LIBRARY_PATH=", launch(root, noDriver, site, Map.of()), "no driver, no CUDA libraries added");
        assertEquals("LD_LIBRARY_PATH=", launch(root, withDriver, site, Map.of("DPDL4J_PIP_CUDA", "0")));
        Path system = Files.createDirectories(dir.resolve("system-cuda"));
        Files.writeString(system.resolve("libcublas.so.13"), "");
        assertEquals("LD_LIBRARY_PATH=" + system, launch(root, withDriver, site, Map.of("LD_LIBRARY_PATH",
                system.toString())), "cuBLAS 13 is on the path already: nothing added");
        assertEquals("LD_LIBRARY_PATH=", launch(root, withDriver, dir.resolve("empty"), Map.of()),
                "no pip CUDA libraries: nothing added");
    }

    /** The interpreter python3 runs (not a version manager's shim, which needs its own tools on the PATH), or null. */
    private static Path interpreter() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor() == 0 && !out.isEmpty() ? Path.of(out) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The executable {@code name} on this process's PATH, or null. */
    private static Path onPath(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(d.isEmpty() ? "." : d, name);
            if (Files.isExecutable(candidate)) {
                return candidate.toAbsolutePath();
            }
        }
        return null;
    }

    /** An executable bash script (bash named by its own path: the PATH the launcher gets has no bash). */
    private static void script(Path file, String body) throws IOException {
        Files.writeString(file, "#!" + onPath("bash") + "\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** The launcher's output with {@code bin} as the whole PATH and {@code site} as the Python path. */
    private static String launch(Path root, Path bin, Path site, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("dpdl4j").toString(), "doctor").redirectErrorStream(true);
        pb.environment().remove("LD_LIBRARY_PATH");
        pb.environment().remove("DPDL4J_PIP_CUDA");
        pb.environment().put("PATH", bin.toString());
        pb.environment().put("PYTHONPATH", site.toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, p.waitFor(), out);
        return out;
    }
}
