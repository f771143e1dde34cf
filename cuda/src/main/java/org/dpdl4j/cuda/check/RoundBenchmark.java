package org.dpdl4j.cuda.check;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import org.dpdl4j.cuda.engine.Backend;
import org.dpdl4j.cuda.engine.StackedDenseModels;

/**
 * Times a decentralized round with every node model on the GPU: MNIST-MLP nodes (784-128-10) on the device check, padded batches of 64,
 * on a ring and on a random 8-regular graph, for each number of nodes that fits. Modes, interleaved in blocks as
 * {@link StepBenchmark} does (the median over blocks of the mean time per round):
 * <ul>
 *   <li>{@code dsgd}: clipped sums without clipping, the step without noise, gossip (the D-SGD round);</li>
 *   <li>{@code decor-hostnoise}: clipped sums (C = 1), the [n, p] noise copied from the host, the step, gossip: the
 *       private round as it runs today, its secure noise drawn on the host (that drawing, on a background thread in a
 *       run, is not timed here: it is the CPU's share);</li>
 *   <li>{@code decor-noise-on-device}: the same with the noise already in device memory, what the round costs once the
 *       noise streams run on the GPU;</li>
 *   <li>{@code decor-as-run}: the private round as a run does it, the batch gathered on the device from the nodes' data
 *       kept there (only which rows make it copied in) and the noise copied from the host;</li>
 *   <li>{@code decor-philox}: the same with the noise drawn on the device from Philox counters (every edge's pairwise
 *       row and every node's private row, as a run with {@code --noise philox} draws it; seeded, NOT secure).</li>
 * </ul>
 * Before it starts it prints how many such nodes fit in the free device memory ({@code FIT} line); sizes that do not
 * fit are skipped, saying so. Results are {@code ROUND} lines that {@code table.py} reads.
 */
final class RoundBenchmark {
    private static final int BATCH = 64;

    private final Backend gpu;
    private final LongSupplier freeBytes;
    private final CheckModels.Case c;
    private final String device;
    private final PrintStream out;
    private final int blocks;
    private final int roundsPerBlock;
    private final double warmupSeconds;

    /**
     * @param freeBytes the device memory free now
     * @param c         the nodes' model (the MNIST MLP on the GPU)
     */
    RoundBenchmark(Backend gpu, LongSupplier freeBytes, CheckModels.Case c, String deviceName, PrintStream out, int blocks,
                   int roundsPerBlock, double warmupSeconds) {
        this.gpu = gpu;
        this.freeBytes = freeBytes;
        this.c = c;
        this.device = deviceName.replace(' ', '_');
        this.out = out;
        this.blocks = blocks;
        this.roundsPerBlock = roundsPerBlock;
        this.warmupSeconds = warmupSeconds;
    }

    /** Times every size of {@code nodeCounts} on both graphs, each as a part of {@code parts} (errors, deadline). */
    void run(List<Integer> nodeCounts, CheckParts parts) {
        // a node of the 8-regular graph: its model and round, its examples kept there, four edges' pairwise rows
        long perNode = StackedDenseModels.bytesFor(c.dense(), 1, BATCH) + StackedDenseModels.bytesToHold(c.dense(), BATCH)
                + StackedDenseModels.bytesForPairwise(c.dense(), 4);
        long free = freeBytes.getAsLong();
        out.printf(Locale.ROOT, "FIT device=%s model=%s batch=%d bytes_per_node=%d free_bytes=%d nodes=%d%n", device, c.name(),
                BATCH, perNode, free, free / perNode);
        for (NodeRounds.Topology topology : List.of(NodeRounds.Topology.RING, NodeRounds.Topology.REGULAR_8)) {
            for (int n : nodeCounts) {
                if (topology == NodeRounds.Topology.REGULAR_8 && n <= 16) {
                    out.printf(Locale.ROOT, "SKIP round %s n=%d: the 8-regular graph here needs more than 16 nodes%n",
                            topology.label(), n);
                    continue;
                }
                long edges = topology == NodeRounds.Topology.RING ? n : 4L * n;
                long needed = StackedDenseModels.bytesFor(c.dense(), n, BATCH) + StackedDenseModels.bytesForPairwise(c.dense(), edges)
                        + StackedDenseModels.bytesToHold(c.dense(), (long) n * BATCH + 1);
                if (needed > 0.9 * freeBytes.getAsLong()) {
                    out.printf(Locale.ROOT, "SKIP round %s n=%d: needs %.1f GiB, %.1f GiB free%n", topology.label(), n,
                            needed / (double) (1L << 30), freeBytes.getAsLong() / (double) (1L << 30));
                    continue;
                }
                parts.benchmark("round " + topology.label() + " n=" + n, () -> time(topology, n));
            }
        }
    }

    private void time(NodeRounds.Topology topology, int n) {
        NodeRounds setting = new NodeRounds(c, n, BATCH, true, topology, 7);
        float[] noise = CheckModels.uniform(n * c.numParams(), 8);
        try (StackedDenseModels m = setting.open(gpu)) {
            setting.loadBatch(m);
            Map<String, Runnable> modes = new LinkedHashMap<>();
            modes.put("dsgd", () -> NodeRounds.round(m, NodeRounds.Privacy.NONE, setting.batchFactors, false, 0.01f));
            modes.put("decor-hostnoise", () -> {
                gpu.upload(noise, 0, m.noise());
                NodeRounds.round(m, NodeRounds.Privacy.EXAMPLE_LEVEL, setting.batchFactors, true, 0.01f);
            });
            modes.put("decor-noise-on-device", () -> NodeRounds.round(m, NodeRounds.Privacy.EXAMPLE_LEVEL,
                    setting.batchFactors, true, 0.01f));
            float[] rows = setting.holdAsData(m);
            modes.put("decor-as-run", () -> {
                m.gatherBatch(rows, setting.mask, BATCH, true);
                gpu.upload(noise, 0, m.noise());
                NodeRounds.round(m, NodeRounds.Privacy.EXAMPLE_LEVEL, setting.batchFactors, true, 0.01f);
            });
            long[] round = {0};
            modes.put("decor-philox", () -> {
                m.gatherBatch(rows, setting.mask, BATCH, true);
                m.drawPhiloxNoise(9, 1L << 32, (1L << 62) | round[0], 0.05, (2L << 62) | round[0], 0.3);
                round[0]++;
                NodeRounds.round(m, NodeRounds.Privacy.EXAMPLE_LEVEL, setting.batchFactors, true, 0.01f);
            });
            gpu.upload(noise, 0, m.noise());
            InterleavedBlocks.medianMillis(gpu, modes, blocks, roundsPerBlock, warmupSeconds).forEach((mode, ms) ->
                    out.printf(Locale.ROOT, "ROUND device=%s model=%s topology=%s nodes=%d batch=%d mode=%s"
                            + " block_median_ms=%.4f%n", device, c.name(), topology.label(), n, BATCH, mode, ms));
        }
    }
}
