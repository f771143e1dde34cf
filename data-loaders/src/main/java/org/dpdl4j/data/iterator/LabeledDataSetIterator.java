package org.dpdl4j.data.iterator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.RandomStreams;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.dataset.api.DataSetPreProcessor;
import org.nd4j.linalg.dataset.api.iterator.DataSetIterator;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A DL4J {@link DataSetIterator} over a {@link LabeledData}: mini-batches of {@code batchSize}
 * examples (the last one smaller when the size is not a multiple), labels in the chosen encoding.
 *
 * <p>With shuffling on, epoch e visits the examples in a permutation drawn from the stream
 * (seed, e): the construction starts epoch 0 and every {@link #reset()} starts the next epoch with
 * a new permutation. The same seed therefore gives the same sequence of batches, epoch after
 * epoch. Batches are gathered with {@link Nd4j#pullRows}, an ND4J op that runs on any backend.
 *
 * <p>Asynchronous prefetching is reported as unsupported so that DL4J does not wrap the iterator
 * and call {@link #reset()} from another thread, which would make epoch numbering depend on timing.
 */
public final class LabeledDataSetIterator implements DataSetIterator {
    private final LabeledData data;
    private final INDArray labelMatrix;
    private final int batchSize;
    private final boolean shuffle;
    private final long seed;
    private final List<String> labelNames;
    private DataSetPreProcessor preProcessor;
    private int epoch;
    private int cursor;
    private int[] order;

    /**
     * An iterator that reshuffles every epoch.
     *
     * @param data      the examples
     * @param batchSize examples per batch, &ge; 1
     * @param encoding  the label encoding of the batches
     * @param seed      the seed of the per-epoch permutations
     */
    public LabeledDataSetIterator(LabeledData data, int batchSize, LabelEncoding encoding, long seed) {
        this(data, batchSize, encoding, true, seed);
    }

    private LabeledDataSetIterator(LabeledData data, int batchSize, LabelEncoding encoding, boolean shuffle, long seed) {
        this.data = Objects.requireNonNull(data, "data");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be at least 1, got " + batchSize);
        }
        this.batchSize = batchSize;
        this.labelMatrix = data.labelMatrix(encoding);
        this.shuffle = shuffle;
        this.seed = seed;
        List<String> names = new ArrayList<>(data.numClasses());
        for (int c = 0; c < data.numClasses(); c++) {
            names.add(Integer.toString(c));
        }
        this.labelNames = List.copyOf(names);
        startEpoch(0);
    }

    /** An iterator that visits the examples in stored order every epoch. */
    public static LabeledDataSetIterator inOrder(LabeledData data, int batchSize, LabelEncoding encoding) {
        return new LabeledDataSetIterator(data, batchSize, encoding, false, 0L);
    }

    /** The current epoch, 0 before the first {@link #reset()}. */
    public int epoch() {
        return epoch;
    }

    /** A copy of the order in which the current epoch visits the examples. */
    public int[] epochOrder() {
        return order.clone();
    }

    private void startEpoch(int e) {
        epoch = e;
        cursor = 0;
        order = shuffle
                ? RandomStreams.permutation(data.size(), RandomStreams.stream(seed, "iterator-epoch", e))
                : RandomStreams.identity(data.size());
    }

    @Override
    public DataSet next(int num) {
        if (num < 1) {
            throw new IllegalArgumentException("batch size must be at least 1, got " + num);
        }
        if (!hasNext()) {
            throw new NoSuchElementException("epoch " + epoch + " is exhausted; call reset() to start the next epoch");
        }
        int to = Math.min(order.length, cursor + num);
        int[] rows = Arrays.copyOfRange(order, cursor, to);
        cursor = to;
        DataSet batch = new DataSet(Nd4j.pullRows(data.features(), 1, rows), Nd4j.pullRows(labelMatrix, 1, rows));
        if (preProcessor != null) {
            preProcessor.preProcess(batch);
        }
        return batch;
    }

    @Override
    public DataSet next() {
        return next(batchSize);
    }

    @Override
    public boolean hasNext() {
        return cursor < order.length;
    }

    @Override
    public int inputColumns() {
        return data.numFeatures();
    }

    @Override
    public int totalOutcomes() {
        return labelMatrix.columns();
    }

    @Override
    public boolean resetSupported() {
        return true;
    }

    @Override
    public boolean asyncSupported() {
        return false;
    }

    /** Starts the next epoch (with a new permutation when shuffling). */
    @Override
    public void reset() {
        startEpoch(epoch + 1);
    }

    @Override
    public int batch() {
        return batchSize;
    }

    @Override
    public void setPreProcessor(DataSetPreProcessor preProcessor) {
        this.preProcessor = preProcessor;
    }

    @Override
    public DataSetPreProcessor getPreProcessor() {
        return preProcessor;
    }

    /** The class names "0", "1", ..., one per class. */
    @Override
    public List<String> getLabels() {
        return labelNames;
    }
}
