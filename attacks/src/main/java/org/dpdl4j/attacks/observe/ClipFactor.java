package org.dpdl4j.attacks.observe;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.LabelRows;
import org.dpdl4j.attacks.network.NetworkGradients;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The factor {@code min(1, C / ||g||)} by which clipping scaled the gradient of the attacked batch. The protocol
 * knows it, the attacker does not (it never sees the clean gradient); observers use it only to record the true
 * scale of a case, for scoring.
 */
final class ClipFactor {
    private ClipFactor() {
    }

    /**
     * @param model    the model at the release
     * @param truth    the attacked examples
     * @param clipNorm C, or {@code +Infinity} (factor 1)
     * @param summed   whether the clipped vector is the gradient of the summed (true) or the mean (false) loss
     */
    static double of(MultiLayerNetwork model, GroundTruth truth, double clipNorm, boolean summed) {
        if (Double.isInfinite(clipNorm)) {
            return 1.0;
        }
        long outputs = model.getOutputLayer().getParam("W").size(1);
        INDArray labels = LabelRows.of(truth.labels(), outputs, model.params().dataType());
        INDArray sum = NetworkGradients.sumOverBatch(model, truth.inputs(), labels);
        double norm = sum.norm2Number().doubleValue() / (summed ? 1 : truth.size());
        return norm == 0 ? 1.0 : Math.min(1.0, clipNorm / norm);
    }

    /**
     * The clip factor of a weighted difference of the batch-mean gradients at two models (a mu^2-SGD increment
     * {@code q = a grad f(current) - b grad f(previous)}).
     */
    static double ofDifference(MultiLayerNetwork current, MultiLayerNetwork previous, GroundTruth truth, double a,
                               double b, double clipNorm) {
        if (Double.isInfinite(clipNorm)) {
            return 1.0;
        }
        long outputs = current.getOutputLayer().getParam("W").size(1);
        INDArray labels = LabelRows.of(truth.labels(), outputs, current.params().dataType());
        INDArray q = NetworkGradients.sumOverBatch(current, truth.inputs(), labels).muli(a)
                .subi(NetworkGradients.sumOverBatch(previous, truth.inputs(), labels).muli(b)).divi(truth.size());
        double norm = q.norm2Number().doubleValue();
        return norm == 0 ? 1.0 : Math.min(1.0, clipNorm / norm);
    }
}
