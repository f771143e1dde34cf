package org.dpdl4j.cuda.check;

import org.dpdl4j.cuda.device.CudaBackend;
import org.dpdl4j.cuda.device.CudaProbe;
import org.dpdl4j.cuda.device.CudaStatus;
import org.dpdl4j.cuda.device.LoadedLibraries;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The device check of dpdl4j's CUDA engine, runnable without ND4J (the bundle of {@code gpu/device-check.sh} carries
 * only this module's jar, the bytedeco CUDA presets and javacpp): what the probe finds, the correctness checks
 * ({@link CorrectnessCheck}, and {@link RoundCheck} for the rounds of n node models) and the benchmarks
 * ({@link StepBenchmark}, {@link RoundBenchmark}), as lines a summary script reads.
 *
 * <pre>
 * java -cp 'lib/*' org.dpdl4j.cuda.check.DeviceCheck [--skip-bench] [--batches 256,4096] [--blocks 10]
 *      [--steps-per-block 20] [--warmup-seconds 2] [--cnn-batch 2048] [--nodes 16,256,1024,4096]
 *      [--deadline-seconds S]
 * </pre>
 * Each part runs on its own: one that throws (a CUDA error, a library that fails to load) prints an {@code ERROR} line
 * and the next part still runs; a benchmark that would start past the deadline is skipped, saying so, so that the
 * correctness verdict and the benchmarks done so far are printed within a machine's time limit.
 * Exit status: 0 every check passed; 1 a check failed; 2 bad options; 3 the engine cannot run here (the probe's reason is
 * printed); 4 no check failed but a part stopped with an error (ERROR lines); 5 the check itself crashed (an ERROR line).
 */
public final class DeviceCheck {
    private DeviceCheck() {
    }

    public static void main(String[] args) {
        int status;
        try {
            status = check(args);
        } catch (Throwable t) {   // whatever escapes the parts: said as such, never as a failed check
            new CheckParts(System.out, System.nanoTime(), 0).error("device check", t);
            status = 5;
        }
        System.out.flush();
        System.exit(status);
    }

    /** The whole check; returns the exit status. */
    private static int check(String[] args) {
        PrintStream out = System.out;
        boolean bench = true;
        List<Integer> batches = List.of(256, 4096);
        int blocks = 10;
        int perBlock = 20;
        int cnnBatch = 2048;
        double warmup = 2.0;
        double deadlineSeconds = 0;
        List<Integer> nodeCounts = List.of(16, 256, 1024, 4096);
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--skip-bench" -> bench = false;
                case "--batches" -> {
                    List<Integer> b = new ArrayList<>();
                    for (String s : args[++i].split(",")) {
                        b.add(Integer.parseInt(s.trim()));
                    }
                    batches = b;
                }
                case "--blocks" -> blocks = Integer.parseInt(args[++i]);
                case "--steps-per-block" -> perBlock = Integer.parseInt(args[++i]);
                case "--warmup-seconds" -> warmup = Double.parseDouble(args[++i]);
                case "--cnn-batch" -> cnnBatch = Integer.parseInt(args[++i]);
                case "--deadline-seconds" -> deadlineSeconds = Double.parseDouble(args[++i]);
                case "--nodes" -> {
                    List<Integer> n = new ArrayList<>();
                    for (String s : args[++i].split(",")) {
                        if (!s.isBlank()) {
                            n.add(Integer.parseInt(s.trim()));
                        }
                    }
                    nodeCounts = n;
                }
                default -> {
                    System.err.println("unknown option " + args[i] + "; options: --skip-bench, --batches B1,B2,"
                            + " --blocks N, --steps-per-block N, --warmup-seconds S, --cnn-batch B (0: no CNN benchmark), --nodes N1,N2"
                            + " (node counts of the round benchmark; empty: none), --deadline-seconds S (no benchmark"
                            + " starts after S seconds; 0: none)");
                    return 2;
                }
            }
        }
        long start = System.nanoTime();
        CudaStatus status = CudaProbe.status();
        out.println("# dpdl4j CUDA engine device check; java " + System.getProperty("java.version"));
        status.facts().forEach(f -> out.println("# " + f));
        CudaProbe.cudnnFacts().forEach(f -> out.println("# " + f));
        if (!status.usable()) {
            out.println("UNUSABLE " + status.problem());
            return 3;
        }
        CheckParts parts = new CheckParts(out, start, deadlineSeconds);
        int failures = 0;
        try (CudaBackend gpu = CudaBackend.open()) {
            out.printf("# backend: %s (opened, kernels compiled, in %.2f s)%n", gpu.describe(), (System.nanoTime() - start) / 1e9);
            // which copies of the libraries run (JavaCPP may take a toolkit's before LD_LIBRARY_PATH's)
            LoadedLibraries.cuda().forEach(path -> out.println("# loaded: " + path));
            // the failures counted before a part stopped with an error count too
            CorrectnessCheck correctness = new CorrectnessCheck(gpu, out);
            parts.check("correctness", correctness::run);
            RoundCheck roundCheck = new RoundCheck(gpu, out);
            parts.check("rounds", roundCheck::run);
            failures = correctness.failures() + roundCheck.failures();
            out.println("# correctness: " + (failures > 0 ? failures + " checks FAILED" : parts.errors() > 0
                    ? "no check failed, but a part stopped with an error (ERROR lines)" : "every check passed"));
            if (bench) {
                StepBenchmark benchmark = new StepBenchmark(gpu, status.device().name(), out, blocks, perBlock, warmup);
                for (int b : batches) {
                    parts.benchmark("mlp batch " + b, () -> benchmark.run(CheckModels.MLP, b));
                }
                parts.benchmark("logistic batch 256", () -> benchmark.run(CheckModels.LOGISTIC, 256));
                if (cnnBatch > 0) {
                    String noConvolutions = CorrectnessCheck.convolutionsProblem(gpu);
                    if (noConvolutions == null) {
                        int cnn = cnnBatch;
                        parts.benchmark("cnn batch " + cnn, () -> benchmark.run(CheckModels.CNN, cnn));
                    } else {
                        out.println("SKIP cnn benchmark: " + noConvolutions);
                    }
                }
                RoundBenchmark rounds = new RoundBenchmark(gpu, gpu::freeBytes, CheckModels.MLP, status.device().name(), out,
                        Math.min(blocks, 5), 5, warmup);
                List<Integer> sizes = nodeCounts;
                // each size is a part of its own; this one catches what fails around them (the free-memory query)
                parts.benchmark("decentralized rounds", () -> rounds.run(sizes, parts));
            }
            gpu.cudnnAlgorithms().forEach(line -> out.println("# cudnn: " + line));
        } catch (RuntimeException | Error e) {   // the backend failed to open or to close
            parts.error("backend", e);
        }
        return failures > 0 ? 1 : parts.errors() > 0 ? 4 : 0;
    }
}
