package org.dpdl4j.experiments.workload;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.dpdl4j.optim.DpModelValidator;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ModelFootprint;

/**
 * Loss and accuracy of a network on a split. Loss is DL4J's score: the mean per-example loss plus the
 * regularization term of the configuration.
 *
 * @param loss     mean loss
 * @param accuracy fraction of correct predictions (NaN for regression)
 */
public record Evaluation(double loss, double accuracy) {

    /**
     * Rows per forward pass for networks that are not fully connected: a convolution's activations (and DL4J's
     * unfolded input) are hundreds of values per example, so a whole data set in one pass would take gigabytes.
     */
    static final int CHUNK = 2048;

    /**
     * What evaluating a workload's network takes, beside the run: a dense network's forward passes over the larger
     * split at once (the loss and the predictions, each keeping every layer's activations), another network's over
     * {@link #CHUNK} rows with the unfolded inputs of its convolutions.
     */
    public static MemoryEstimate.Part memory(Workload workload) {
        ModelFootprint m = workload.footprint();
        boolean dense = m.unfolded() == 0;
        double rows = dense ? Math.max(workload.train().size(), workload.test().size()) : Math.min(CHUNK, workload.train().size());
        return new MemoryEstimate.Part("the evaluation's forward passes", 2 * rows * (m.activations() + m.unfolded()) * m.valueBytes(), 0);
    }

    /** Evaluates the network as it is. */
    public static Evaluation of(MultiLayerNetwork net, Workload.Split split, boolean classification) {
        INDArray x = split.features().castTo(net.params().dataType());
        INDArray y = split.labels().castTo(net.params().dataType());
        long n = x.size(0);
        if (n > CHUNK && !DpModelValidator.isDense(net.getLayerWiseConfigurations())) {
            return chunked(net, x, y, classification);
        }
        double loss = net.score(new DataSet(x, y), false);
        if (!classification) {
            return new Evaluation(loss, Double.NaN);
        }
        return new Evaluation(loss, accuracy(net.output(x, false), y));
    }

    /** The same in passes of {@link #CHUNK} rows: the mean loss weighted by the chunks' sizes (DL4J's score is a mean). */
    private static Evaluation chunked(MultiLayerNetwork net, INDArray x, INDArray y, boolean classification) {
        long n = x.size(0);
        double lossSum = 0;
        double correct = 0;
        for (long start = 0; start < n; start += CHUNK) {
            long end = Math.min(n, start + CHUNK);
            INDArray xc = x.get(NDArrayIndex.interval(start, end), NDArrayIndex.all());
            INDArray yc = y.get(NDArrayIndex.interval(start, end), NDArrayIndex.all());
            lossSum += net.score(new DataSet(xc, yc), false) * (end - start);
            if (classification) {
                correct += accuracy(net.output(xc, false), yc) * (end - start);
            }
        }
        return new Evaluation(lossSum / n, classification ? correct / n : Double.NaN);
    }

    private static double accuracy(INDArray out, INDArray y) {
        INDArray correct;
        if (y.size(1) == 1) {
            correct = out.gt(0.5).castTo(DataType.FLOAT).eq(y.castTo(DataType.FLOAT));
        } else {
            correct = out.argMax(1).eq(y.argMax(1));
        }
        return correct.castTo(DataType.DOUBLE).meanNumber().doubleValue();
    }

    /** Evaluates the parameters {@code params} ([p]) loaded into {@code template} (which they overwrite). */
    public static Evaluation ofParams(MultiLayerNetwork template, INDArray params, Workload.Split split, boolean classification) {
        template.setParams(params.reshape(1, params.length()).castTo(template.params().dataType()));
        return of(template, split, classification);
    }
}
