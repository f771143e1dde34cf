package org.dpdl4j.attacks.observe;

import java.util.List;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.LabelRows;
import org.nd4j.linalg.api.ndarray.INDArray;

/** A gradient released directly (possibly with Gaussian noise), observed by its receiver. */
public final class CentralGradientScenario implements AttackScenario {
    private final CentralGradientObserver receiver = new CentralGradientObserver();

    @Override
    public String algorithm() {
        return "central";
    }

    @Override
    public List<String> observers() {
        return List.of("gradient");
    }

    @Override
    public AttackCase build(ScenarioRequest request) {
        AttackScenarios.requireObserver(this, request.observer());
        INDArray features = request.truth().inputs().castTo(request.model().params().dataType());
        long outputs = request.model().getOutputLayer().getParam("W").size(1);
        INDArray labels = LabelRows.of(request.truth().labels(), outputs, features.dataType());
        GradientRelease release = CentralGradientRelease.release(request.model(), features, labels,
                request.noiseStd(), request.seed());
        return receiver.observe(release, request.context());
    }
}
