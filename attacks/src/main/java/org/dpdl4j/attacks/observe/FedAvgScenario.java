package org.dpdl4j.attacks.observe;

import java.util.List;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.LabelRows;
import org.nd4j.linalg.api.ndarray.INDArray;

/** FedAvg with one local step at the attacked client, observed by the server. */
public final class FedAvgScenario implements AttackScenario {
    private final FedAvgServerObserver server = new FedAvgServerObserver();

    @Override
    public String algorithm() {
        return "fedavg";
    }

    @Override
    public List<String> observers() {
        return List.of("server");
    }

    @Override
    public AttackCase build(ScenarioRequest request) {
        AttackScenarios.requireObserver(this, request.observer());
        INDArray features = request.truth().inputs().castTo(request.model().params().dataType());
        long outputs = request.model().getOutputLayer().getParam("W").size(1);
        INDArray labels = LabelRows.of(request.truth().labels(), outputs, features.dataType());
        FedAvgUpload upload = FedAvgClientStep.upload(request.model(), features, labels, request.learningRate(),
                request.noiseStd(), request.seed());
        return server.observe(upload, request.context());
    }
}
