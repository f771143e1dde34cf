package org.dpdl4j.cuda.check;

import org.dpdl4j.cuda.engine.Backend;
import org.dpdl4j.cuda.engine.DpStep;
import org.dpdl4j.cuda.engine.StepNoise;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Times the engine's step as {@code gpu_step.py} times torch's: the same model, batch sizes, C = 1, noise multiplier 1,
 * SGD lr 0.01, the batch and its squared feature norms already on the device (uniform random inputs), a warm-up, then interleaved blocks of steps
 * (one untimed step first, the order reversed every other block), each block timed from a synchronised start to a
 * synchronised end; the result is the median over blocks of the mean time per step, printed as {@code RESULT} lines in
 * gpu_step.py's format. Modes:
 * <ul>
 *   <li>{@code dpdl4j-plain}: no clipping, no noise (the engine's non-private step);</li>
 *   <li>{@code dpdl4j-dp-philox}: the DP step with seeded Philox noise drawn on the device (NOT secure; the noise
 *       torch's steps use is not cryptographic either);</li>
 *   <li>{@code dpdl4j-dp-hostnoise}: the DP step with a noise vector copied from the host every step, as the secure
 *       source supplies it (its drawing, on a background thread in training, is not timed here);</li>
 *   <li>{@code dpdl4j-dp-philox-readback}: as dp-philox, with the norms and the loss read back every step (what a
 *       training loop that logs the loss waits for).</li>
 * </ul>
 */
final class StepBenchmark {
    private final Backend gpu;
    private final PrintStream out;
    private final String device;
    private final int blocks;
    private final int stepsPerBlock;
    private final double warmupSeconds;

    StepBenchmark(Backend gpu, String deviceName, PrintStream out, int blocks, int stepsPerBlock, double warmupSeconds) {
        this.gpu = gpu;
        this.device = deviceName.replace(' ', '_');
        this.out = out;
        this.blocks = blocks;
        this.stepsPerBlock = stepsPerBlock;
        this.warmupSeconds = warmupSeconds;
    }

    void run(CheckModels.Case c, int b) {
        try (DpStep step = c.open(gpu)) {
            step.parameters().set(CheckModels.parameters(c, 11));
            float[] x = CheckModels.features(c, b, 12);
            // the feature norms come with the batch, as dpdl4j's trainer and gpu_step.py's ghost-norm step have them
            step.loadBatch(x, CheckModels.labels(c, b, 13), CheckModels.squaredNorms(c, x, b), b);
            float[] noise = CheckModels.uniform(c.numParams(), 14);
            long[] counter = {0};
            Map<String, Runnable> modes = new LinkedHashMap<>();
            modes.put("dpdl4j-plain", () -> {
                step.clippedSum(Double.POSITIVE_INFINITY);
                step.parameters().step(StepNoise.NONE, b, 0.01);
            });
            modes.put("dpdl4j-dp-philox", () -> {
                step.clippedSum(1.0);
                step.parameters().step(new StepNoise.SeededPhilox(1, counter[0]++, 1f), b, 0.01);
            });
            modes.put("dpdl4j-dp-hostnoise", () -> {
                step.clippedSum(1.0);
                step.parameters().step(new StepNoise.FromArray(noise), b, 0.01);
            });
            modes.put("dpdl4j-dp-philox-readback", () -> {
                step.clippedSum(1.0);
                step.parameters().step(new StepNoise.SeededPhilox(1, counter[0]++, 1f), b, 0.01);
                step.measures();
            });
            InterleavedBlocks.medianMillis(gpu, modes, blocks, stepsPerBlock, warmupSeconds).forEach((m, ms) -> out.printf(
                    Locale.ROOT, "RESULT device=%s model=%s batch=%d mode=%s block_median_ms=%.4f examples_per_s=%.0f%n",
                    device, c.name(), b, m, ms, b / ms * 1e3));
        }
    }
}
