package org.dpdl4j.optim;

import java.util.Arrays;
import org.deeplearning4j.nn.api.Model;
import org.nd4j.linalg.dataset.DataSet;

/**
 * The batches of an iterator checked one by one, as a streaming run reads them: the first against the network (the
 * checks of {@link TrainingExamples}), every later one against the first, so that a batch of another shape is refused
 * by its number rather than failing inside a step.
 */
final class CheckedBatches {
    private final Model net;
    private long[] firstFeatures;
    private long[] firstLabels;
    private long[] imageShape;

    CheckedBatches(Model net) {
        this.net = net;
    }

    /**
     * The batch as checked rows in the network's data type.
     *
     * @param number the batch's place in the pass, from 1 (for the message)
     * @throws IllegalArgumentException for masks, a shape unlike the first batch's, or data the network cannot take
     */
    TrainingExamples check(DataSet batch, long number) {
        if (batch.getFeaturesMaskArray() != null || batch.getLabelsMaskArray() != null) {
            throw new IllegalArgumentException("the iterator's batch " + number + " carries masks; private training takes"
                    + " one feature row (or image) and one label row per example, without masks");
        }
        long[] x = batch.getFeatures().shape();
        long[] y = batch.getLabels().shape();
        if (firstFeatures == null) {
            TrainingExamples rows = TrainingExamples.of(net, batch.getFeatures(), batch.getLabels());
            firstFeatures = x;
            firstLabels = y;
            imageShape = rows.imageShape();
            return rows;
        }
        if (!sameExampleShape(firstFeatures, x) || !sameExampleShape(firstLabels, y)) {
            throw new IllegalArgumentException("the iterator's batch " + number + " has features " + Arrays.toString(x)
                    + " and labels " + Arrays.toString(y) + ", unlike its first batch (" + Arrays.toString(firstFeatures)
                    + ", " + Arrays.toString(firstLabels) + "); a streaming run needs every example in one shape: give an"
                    + " iterator whose batches all hold examples of the first batch's shape");
        }
        return TrainingExamples.of(net, batch.getFeatures(), batch.getLabels());
    }

    /** The shape of one example to give the network ([c, h, w]), or null for rows; known after the first batch. */
    long[] imageShape() {
        return imageShape;
    }

    private static boolean sameExampleShape(long[] a, long[] b) {
        return a.length == b.length && Arrays.equals(Arrays.copyOfRange(a, 1, a.length), Arrays.copyOfRange(b, 1, b.length));
    }
}
