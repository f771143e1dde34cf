package org.dpdl4j.optim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.dataset.api.iterator.DataSetIterator;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The whole contents of a {@link DataSetIterator}, read once into two arrays. Private training samples every step from
 * the whole data set (an exact Poisson or fixed-size sample, which is what the accountant assumes; an iterator's own
 * batches would be another, unanalysed scheme), so the data set has to be at hand: it is held in memory, at the cost
 * {@link #describeCost()} states. {@link PrivateTrainer.Builder#streaming} draws the same samples from a resettable
 * iterator read in passes instead, holding only the drawn rows.
 *
 * @param features the examples along dimension 0, as the iterator gave them (rows or images)
 * @param labels   the label rows
 */
public record IteratorContents(INDArray features, INDArray labels) {

    /**
     * Reads the iterator (reset before and after when it can be).
     *
     * @throws IllegalArgumentException for batches with masks, of differing shapes, or none at all
     */
    public static IteratorContents read(DataSetIterator iterator) {
        Objects.requireNonNull(iterator, "iterator");
        List<INDArray> xs = new ArrayList<>();
        List<INDArray> ys = new ArrayList<>();
        if (iterator.resetSupported()) {
            iterator.reset();
        }
        while (iterator.hasNext()) {
            DataSet d = iterator.next();
            if (d.getFeaturesMaskArray() != null || d.getLabelsMaskArray() != null) {
                throw new IllegalArgumentException("the iterator's batches carry masks; private training takes one feature"
                        + " row (or image) and one label row per example, without masks");
            }
            if (!xs.isEmpty() && (!sameExampleShape(xs.get(0), d.getFeatures()) || !sameExampleShape(ys.get(0), d.getLabels()))) {
                throw new IllegalArgumentException("the iterator's batch " + (xs.size() + 1) + " has features "
                        + Arrays.toString(d.getFeatures().shape()) + " and labels " + Arrays.toString(d.getLabels().shape())
                        + ", unlike its first batch (" + Arrays.toString(xs.get(0).shape()) + ", "
                        + Arrays.toString(ys.get(0).shape()) + "); every example must have the same shape");
            }
            xs.add(d.getFeatures());
            ys.add(d.getLabels());
        }
        if (iterator.resetSupported()) {
            iterator.reset();
        }
        if (xs.isEmpty()) {
            throw new IllegalArgumentException("the iterator holds no examples" + (iterator.resetSupported() ? ""
                    : " (it cannot be reset: was it read before?)"));
        }
        return new IteratorContents(stack(xs), stack(ys));
    }

    private static boolean sameExampleShape(INDArray a, INDArray b) {
        return a.rank() == b.rank() && Arrays.equals(Arrays.copyOfRange(a.shape(), 1, a.rank()),
                Arrays.copyOfRange(b.shape(), 1, b.rank()));
    }

    private static INDArray stack(List<INDArray> parts) {
        return parts.size() == 1 ? parts.get(0) : Nd4j.concat(0, parts.toArray(INDArray[]::new));
    }

    /** The memory the examples hold, in words: read once, kept for the whole run. */
    public String describeCost() {
        long bytes = (features.length() + labels.length()) * features.dataType().width();
        return String.format(Locale.ROOT, "%,d examples read from the iterator into memory: %s (features %s, labels %s, %s),"
                        + " kept for the run so that every step samples from all of them", features.size(0), size(bytes),
                Arrays.toString(features.shape()), Arrays.toString(labels.shape()), features.dataType());
    }

    static String size(long bytes) {
        if (bytes >= 1L << 30) {
            return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
        }
        if (bytes >= 1L << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
        }
        return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
    }
}
