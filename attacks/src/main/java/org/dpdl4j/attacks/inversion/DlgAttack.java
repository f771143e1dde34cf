package org.dpdl4j.attacks.inversion;

import java.util.Objects;
import java.util.Optional;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.matching.LabelTreatment;
import org.dpdl4j.attacks.network.TargetNetwork;

/**
 * Deep Leakage from Gradients (Zhu, Liu, Han 2019): dummy inputs {@code x' ~ N(0, 1)} and dummy label logits
 * {@code u' ~ N(0, 1)} are optimised jointly so that the gradient of the loss with the soft labels
 * {@code softmax(u')} matches the observation. The label of each dummy is the argmax of its soft label.
 */
public final class DlgAttack implements InversionAttack {
    private final DlgConfig config;

    /** DLG with the given settings ({@link DlgConfig#defaults()} reproduces the reference). */
    public DlgAttack(DlgConfig config) {
        this.config = Objects.requireNonNull(config, "config must not be null; use DlgConfig.defaults()");
    }

    @Override
    public String name() {
        return "dlg";
    }

    @Override
    public AttackResult attack(AttackCase attackCase) {
        Objects.requireNonNull(attackCase, "attack case must not be null");
        return MatchingAttacks.run(name(), attackCase, attackCase.target(), LabelTreatment.optimised(), null, config);
    }

    @Override
    public Optional<String> limitation(TargetNetwork network, int batchSize) {
        return config.engine().limitation(network);
    }
}
