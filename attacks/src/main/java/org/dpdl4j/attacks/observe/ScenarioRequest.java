package org.dpdl4j.attacks.observe;

import java.util.Map;
import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.LabelRows;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Everything a simulated scenario needs to produce one observed release of the attacked batch.
 *
 * @param model         the model at the release (not modified)
 * @param truth         the attacked batch
 * @param observer      the adversary position, one of the scenario's {@link AttackScenario#observers()}
 * @param learningRate  learning rate of a simulated local step
 * @param noiseStd      std of Gaussian noise added to the released message, 0 for none
 * @param seed          seed of that noise
 * @param round         training round of the release
 * @param modelAccuracy test accuracy of the model, NaN if not measured
 * @param details       settings to record with the case
 */
public record ScenarioRequest(MultiLayerNetwork model, GroundTruth truth, String observer, double learningRate,
                              double noiseStd, long seed, long round, double modelAccuracy,
                              Map<String, String> details) {

    public ScenarioRequest {
        Objects.requireNonNull(model, "model must not be null");
        Objects.requireNonNull(truth, "ground truth must not be null");
        Objects.requireNonNull(observer, "observer must not be null");
        details = Map.copyOf(Objects.requireNonNull(details, "details must not be null (use Map.of())"));
    }

    /** The attacked batch's inputs in the model's data type. */
    INDArray features() {
        return truth.inputs().castTo(model.params().dataType());
    }

    /** The attacked batch's labels as rows the model's output layer takes (one-hot, or 0/1 for one output). */
    INDArray labelRows() {
        long outputs = model.getOutputLayer().getParam("W").size(1);
        return LabelRows.of(truth.labels(), outputs, model.params().dataType());
    }

    /** The context the observer attaches to the case. */
    CaseContext context() {
        return new CaseContext(truth, round, modelAccuracy, details);
    }
}
