package org.dpdl4j.cuda.check;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpdl4j.cuda.engine.Backend;

/**
 * How the device check times several modes of one computation against each other (the protocol of
 * {@code gpu_step.py}): a warm-up running every mode, then interleaved blocks (the order reversed every other block),
 * each block one untimed run and then {@code perBlock} runs from a synchronised start to a synchronised end; a mode's
 * time is the median over blocks of its mean milliseconds per run.
 */
final class InterleavedBlocks {
    private InterleavedBlocks() {
    }

    /** Each mode's median milliseconds per run, in the modes' order. */
    static Map<String, Double> medianMillis(Backend gpu, Map<String, Runnable> modes, int blocks, int perBlock,
                                            double warmupSeconds) {
        long end = System.nanoTime() + (long) (warmupSeconds * 1e9);
        while (System.nanoTime() < end) {
            modes.values().forEach(Runnable::run);
            gpu.synchronize();
        }
        Map<String, List<Double>> times = new LinkedHashMap<>();
        modes.keySet().forEach(m -> times.put(m, new ArrayList<>()));
        List<String> order = new ArrayList<>(modes.keySet());
        for (int k = 0; k < blocks; k++) {
            List<String> now = new ArrayList<>(order);
            if (k % 2 == 1) {
                Collections.reverse(now);
            }
            for (String m : now) {
                times.get(m).add(block(gpu, modes.get(m), perBlock));
            }
        }
        Map<String, Double> out = new LinkedHashMap<>();
        times.forEach((m, v) -> out.put(m, median(v)));
        return out;
    }

    /** Mean milliseconds per run over one block, after one untimed run. */
    private static double block(Backend gpu, Runnable run, int perBlock) {
        run.run();
        gpu.synchronize();
        long t = System.nanoTime();
        for (int s = 0; s < perBlock; s++) {
            run.run();
        }
        gpu.synchronize();
        return (System.nanoTime() - t) / 1e6 / perBlock;
    }

    private static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
