package org.dpdl4j.protocol.central;

import java.util.Objects;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.noise.NoiseKind;

/**
 * The one description of a central DP-SGD run apart from its model and data: the mechanism ({@link DpSgdConfig}:
 * clip, noise or target, batch, epochs, sampling, budget) and the training around it.
 *
 * @param mechanism    what is clipped, sampled and noised, and how many steps
 * @param updater      DL4J updater's name: sgd, momentum or adam
 * @param learningRate the updater's learning rate
 * @param weightDecay  L2 weight decay of the network
 * @param seed         seed of the model, the seeded noise and the seeded sampling
 * @param noise        where noise and sampling come from
 * @param accountants  how the run is calibrated and priced
 */
public record DpSgdRunSpec(DpSgdConfig mechanism, String updater, double learningRate, double weightDecay, long seed,
                           NoiseKind noise, AccountantFactory accountants) {
    public DpSgdRunSpec {
        Objects.requireNonNull(mechanism, "mechanism");
        Objects.requireNonNull(updater, "updater");
        Objects.requireNonNull(noise, "noise kind");
        Objects.requireNonNull(accountants, "accountants");
    }
}
