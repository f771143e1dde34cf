package org.dpdl4j.attacks.observe;

import java.util.List;
import org.dpdl4j.attacks.AttackCase;

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
        GradientRelease release = CentralGradientRelease.release(request.model(), request.features(), request.labelRows(),
                request.noiseStd(), request.seed());
        return receiver.observe(release, request.context());
    }
}
