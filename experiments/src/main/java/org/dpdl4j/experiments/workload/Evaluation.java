package org.dpdl4j.experiments.workload;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;

/**
 * Loss and accuracy of a network on a split. Loss is DL4J's score: the mean per-example loss plus the
 * regularization term of the configuration.
 *
 * @param loss     mean loss
 * @param accuracy fraction of correct predictions (NaN for regression)
 */
public record Evaluation(double loss, double accuracy) {

    /** Evaluates the network as it is. */
    public static Evaluation of(MultiLayerNetwork net, Workload.Split split, boolean classification) {
        INDArray x = split.features().castTo(net.params().dataType());
        INDArray y = split.labels().castTo(net.params().dataType());
        double loss = net.score(new DataSet(x, y), false);
        if (!classification) {
            return new Evaluation(loss, Double.NaN);
        }
        INDArray out = net.output(x, false);
        INDArray correct;
        if (y.size(1) == 1) {
            correct = out.gt(0.5).castTo(DataType.FLOAT).eq(y.castTo(DataType.FLOAT));
        } else {
            correct = out.argMax(1).eq(y.argMax(1));
        }
        return new Evaluation(loss, correct.castTo(DataType.DOUBLE).meanNumber().doubleValue());
    }

    /** Evaluates the parameters {@code params} ([p]) loaded into {@code template} (which they overwrite). */
    public static Evaluation ofParams(MultiLayerNetwork template, INDArray params, Workload.Split split, boolean classification) {
        template.setParams(params.reshape(1, params.length()).castTo(template.params().dataType()));
        return of(template, split, classification);
    }
}
