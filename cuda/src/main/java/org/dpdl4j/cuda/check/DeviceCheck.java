package org.dpdl4j.cuda.check;

import org.dpdl4j.cuda.device.CudaBackend;
import org.dpdl4j.cuda.device.CudaProbe;
import org.dpdl4j.cuda.device.CudaStatus;

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
 * </pre>
 * Exit status: 0 every check passed; 1 a check failed; 3 the engine cannot run here (the probe's reason is printed).
 */
public final class DeviceCheck {
    private DeviceCheck() {
    }

    public static void main(String[] args) {
        PrintStream out = System.out;
        boolean bench = true;
        List<Integer> batches = List.of(256, 4096);
        int blocks = 10;
        int perBlock = 20;
        int cnnBatch = 2048;
        double warmup = 2.0;
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
                            + " (node counts of the round benchmark; empty: none)");
                    System.exit(2);
                }
            }
        }
        CudaStatus status = CudaProbe.status();
        out.println("# dpdl4j CUDA engine device check; java " + System.getProperty("java.version"));
        status.facts().forEach(f -> out.println("# " + f));
        CudaProbe.cudnnFacts().forEach(f -> out.println("# " + f));
        if (!status.usable()) {
            out.println("UNUSABLE " + status.problem());
            System.exit(3);
        }
        long t = System.nanoTime();
        int failures;
        try (CudaBackend gpu = CudaBackend.open()) {
            out.printf("# backend: %s (opened, kernels compiled, in %.2f s)%n", gpu.describe(), (System.nanoTime() - t) / 1e9);
            failures = new CorrectnessCheck(gpu, out).run();
            failures += new RoundCheck(gpu, out).run();
            out.println("# correctness: " + (failures == 0 ? "every check passed" : failures + " checks FAILED"));
            if (bench) {
                StepBenchmark benchmark = new StepBenchmark(gpu, status.device().name(), out, blocks, perBlock, warmup);
                for (int b : batches) {
                    benchmark.run(CheckModels.MLP, b);
                }
                benchmark.run(CheckModels.LOGISTIC, 256);
                if (cnnBatch > 0 && gpuComputesConvolutions(gpu, out)) {
                    benchmark.run(CheckModels.CNN, cnnBatch);
                }
                new RoundBenchmark(gpu, gpu::freeBytes, CheckModels.MLP, status.device().name(), out, Math.min(blocks, 5), 5,
                        warmup).run(nodeCounts);
            }
        }
        out.flush();
        System.exit(failures == 0 ? 0 : 1);
    }

    /** Whether the GPU backend computes convolutions (cuDNN loads); prints a SKIP line naming the problem when not. */
    private static boolean gpuComputesConvolutions(CudaBackend gpu, PrintStream out) {
        try {
            gpu.convolutions();
            return true;
        } catch (IllegalStateException e) {
            out.println("SKIP cnn benchmark: " + e.getMessage());
            return false;
        }
    }
}
