package org.dpdl4j.optim;

/** Receives the noisy gradient of every DP-SGD step (see {@link StepTap}), e.g. to simulate an attacker. */
@FunctionalInterface
public interface StepObserver {
    void onStep(StepTap tap);
}
