package org.dpdl4j.optim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.deeplearning4j.nn.api.Model;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.api.iterator.DataSetIterator;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Training examples streamed from a resettable iterator in passes, instead of held in memory. A pass first draws the
 * rows of each of its next m steps with the trainer's {@link BatchSampler} (for Poisson sampling: every example in
 * every step independently with probability q, by geometric gaps), then reads the iterator once and keeps only the
 * drawn rows, so it holds about m times the expected batch, not N examples.
 *
 * <p>This is exact: each step's rows are drawn by the same sampler, from the same randomness, in the same step order
 * as a trainer holding the data draws them, and the draws depend on N only, never on the data. So the batches have the
 * distribution the accountant analyses (and a seeded run gives the same batches as in memory); only the moment the rows
 * are gathered differs. An iterator that reshuffles on reset changes which example sits at a position between passes,
 * but independently of the draws, so each example is still in each step independently with probability q (a uniform
 * subset of positions is still a uniform subset of examples); every pass must give the same N examples, which is
 * checked.
 */
final class StreamedExamples implements ExampleSource {
    private final DataSetIterator iterator;
    private final int stepsPerPass;
    private final long size;
    private final CheckedBatches checks;
    private final long featureWidth;
    private final long labelWidth;
    private final DataType type;
    private final ArrayDeque<Pending> drawn = new ArrayDeque<>();
    private long passes;
    private long heldRows;
    private long mostHeldRows;
    private long largestPass;

    /** The rows of one step gathered by a pass (null arrays for an empty batch). */
    private record Pending(INDArray features, INDArray labels, int size) {
    }

    private StreamedExamples(DataSetIterator iterator, int stepsPerPass, long size, CheckedBatches checks,
                             TrainingExamples firstBatch) {
        this.iterator = iterator;
        this.stepsPerPass = stepsPerPass;
        this.size = size;
        this.checks = checks;
        this.featureWidth = firstBatch.features().size(1);
        this.labelWidth = firstBatch.labels().size(1);
        this.type = firstBatch.features().dataType();
    }

    /**
     * Counts and checks the iterator's examples in one pass (every batch against the network and the first batch).
     *
     * @throws IllegalArgumentException for an iterator that cannot be reset, holds no examples, or has a batch the
     *                                  network cannot take, naming the fix
     */
    static StreamedExamples open(Model net, DataSetIterator iterator, int stepsPerPass) {
        Objects.requireNonNull(iterator, "iterator");
        if (stepsPerPass < 1) {
            throw new IllegalArgumentException("a pass over the iterator gathers the batches of at least one step, got "
                    + stepsPerPass + " steps per pass: give stepsPerPass >= 1 (more steps per pass, fewer passes and more"
                    + " rows held)");
        }
        if (!iterator.resetSupported()) {
            throw new IllegalArgumentException("the iterator cannot be reset, but a streaming run reads it once per pass"
                    + " (and once first to count and check its examples): give a resettable iterator, or read it once"
                    + " into memory with data(iterator)");
        }
        CheckedBatches checks = new CheckedBatches(net);
        TrainingExamples first = null;
        long n = 0;
        long number = 0;
        iterator.reset();
        while (iterator.hasNext()) {
            TrainingExamples rows = checks.check(iterator.next(), ++number);
            first = first == null ? rows : first;
            n += rows.size();
        }
        iterator.reset();
        if (first == null || n == 0) {
            throw new IllegalArgumentException("the iterator holds no examples");
        }
        return new StreamedExamples(iterator, stepsPerPass, n, checks, first);
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public StepBatch next(BatchSampler sampler, RandomGenerator random, long stepsLeft) {
        if (drawn.isEmpty()) {
            try {
                readPass(sampler, random, (int) (stepsLeft > 0 ? Math.min(stepsPerPass, stepsLeft) : stepsPerPass));
            } catch (RuntimeException e) {
                heldRows = 0;   // the failed pass's rows are dropped
                throw e;
            }
        }
        Pending step = drawn.poll();
        heldRows -= step.size();
        if (step.size() == 0) {
            return new StepBatch(TrainingExamples.asNetworkInput(Nd4j.create(type, 0, featureWidth), checks.imageShape()),
                    Nd4j.create(type, 0, labelWidth), null, 0);
        }
        INDArray norms = RowNorms.squared(step.features(), 1).reshape(step.size(), 1);
        return new StepBatch(TrainingExamples.asNetworkInput(step.features(), checks.imageShape()), step.labels(), norms,
                step.size());
    }

    /** Draws the rows of the next {@code steps} steps, then reads the iterator once, keeping only those rows. */
    private void readPass(BatchSampler sampler, RandomGenerator random, int steps) {
        int[][] rows = new int[steps][];
        long passRows = 0;
        for (int s = 0; s < steps; s++) {
            rows[s] = sampler.sample(random);
            passRows += rows[s].length;
        }
        largestPass = Math.max(largestPass, passRows);
        List<List<INDArray>> xs = new ArrayList<>();
        List<List<INDArray>> ys = new ArrayList<>();
        for (int s = 0; s < steps; s++) {
            xs.add(new ArrayList<>());
            ys.add(new ArrayList<>());
        }
        int[] gathered = new int[steps];   // per step: how many of its (increasing) rows are gathered
        long start = 0;
        long number = 0;
        // the pass's rows live across steps, so outside any workspace a step runs in
        try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
            iterator.reset();
            while (iterator.hasNext()) {
                TrainingExamples batch = checks.check(iterator.next(), ++number);
                long end = start + batch.size();
                for (int s = 0; s < steps; s++) {
                    int from = gathered[s];
                    int to = firstAtOrAbove(rows[s], from, end);
                    if (to > from) {
                        int[] local = new int[to - from];
                        for (int i = 0; i < local.length; i++) {
                            local[i] = (int) (rows[s][from + i] - start);
                        }
                        xs.get(s).add(Nd4j.pullRows(batch.features(), 1, local));
                        ys.get(s).add(Nd4j.pullRows(batch.labels(), 1, local));
                        gathered[s] = to;
                        heldRows += local.length;
                        mostHeldRows = Math.max(mostHeldRows, heldRows);
                    }
                }
                start = end;
            }
            passes++;
            if (start != size) {
                throw new IllegalStateException("pass " + passes + " over the iterator gave " + start + " examples, but"
                        + " it gave " + size + " when the trainer was built; a streaming run draws examples by position,"
                        + " so every pass must give the same examples: give an iterator that returns the same data after"
                        + " every reset, or read it once into memory with data(iterator)");
            }
            for (int s = 0; s < steps; s++) {
                drawn.add(new Pending(stack(xs.get(s)), stack(ys.get(s)), rows[s].length));
            }
        }
    }

    /** The first position at or after {@code from} whose row is at or above {@code end} (rows increase). */
    private static int firstAtOrAbove(int[] rows, int from, long end) {
        if (end > Integer.MAX_VALUE) {
            return rows.length;
        }
        int at = Arrays.binarySearch(rows, from, rows.length, (int) end);
        return at >= 0 ? at : -at - 1;
    }

    private static INDArray stack(List<INDArray> parts) {
        return parts.isEmpty() ? null : parts.size() == 1 ? parts.get(0) : Nd4j.concat(0, parts.toArray(INDArray[]::new));
    }

    @Override
    public void discardDrawnAhead() {
        drawn.clear();
        heldRows = 0;
    }

    /** The steps whose batches one pass gathers (fewer in a last pass that ends the plan). */
    int stepsPerPass() {
        return stepsPerPass;
    }

    /** Passes over the iterator so far, not counting the one that counted and checked the examples. */
    long passes() {
        return passes;
    }

    /** Rows held now: the gathered batches of the pass's steps not yet taken. */
    long heldRows() {
        return heldRows;
    }

    /** The most rows held at once so far. */
    long mostHeldRows() {
        return mostHeldRows;
    }

    /** The most rows one pass has drawn (the sum of its steps' batch sizes), which bounds the rows held. */
    long largestPass() {
        return largestPass;
    }

    private long bytesPerExample() {
        return (featureWidth + labelWidth) * type.width();
    }

    /** The memory and the passes a run of {@code steps} steps of {@code expectedBatch} expected examples costs. */
    String describeCost(double expectedBatch, long steps) {
        double held = Math.min(size, stepsPerPass * expectedBatch);
        return String.format(Locale.ROOT, "%,d examples streamed from the iterator in passes of %d steps: about %,.0f"
                        + " examples (%s) held at a time instead of all %,d (%s); the planned %,d steps read the iterator"
                        + " %,d times, after the one pass that counted and checked the examples", size, stepsPerPass, held,
                IteratorContents.size((long) held * bytesPerExample()), size,
                IteratorContents.size(size * bytesPerExample()), steps, (steps + stepsPerPass - 1) / stepsPerPass);
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "%,d examples streamed from the iterator in passes of %d steps (%,d passes so"
                        + " far); at most %,d examples (%s) held at once, %,d now", size, stepsPerPass, passes, mostHeldRows,
                IteratorContents.size(mostHeldRows * bytesPerExample()), heldRows);
    }
}
