package org.dpdl4j.attacks.observe;

import java.util.List;
import org.dpdl4j.attacks.AttackCase;

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
        FedAvgUpload upload = FedAvgClientStep.upload(request.model(), request.features(), request.labelRows(), request.learningRate(),
                request.noiseStd(), request.seed());
        return server.observe(upload, request.context());
    }
}
