package org.dpdl4j.attacks.inversion;

import java.util.Objects;
import java.util.Optional;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.LabelRows;
import org.dpdl4j.attacks.matching.LabelTreatment;
import org.dpdl4j.attacks.network.TargetNetwork;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * Improved DLG (Zhao, Mopuri, Bilen 2020): the label is read from the signs of the output-layer gradient
 * ({@link LabelRecovery}), then only the dummy input is optimised, with the label fixed to it. Batch size 1 only.
 */
public final class IdlgAttack implements InversionAttack {
    private final DlgConfig config;

    /** iDLG with the given optimisation settings. */
    public IdlgAttack(DlgConfig config) {
        this.config = Objects.requireNonNull(config, "config must not be null; use DlgConfig.defaults()");
    }

    @Override
    public String name() {
        return "idlg";
    }

    @Override
    public AttackResult attack(AttackCase attackCase) {
        Objects.requireNonNull(attackCase, "attack case must not be null");
        TargetNetwork target = attackCase.target();
        limitation(target, attackCase.batchSize()).ifPresent(why -> {
            throw new IllegalArgumentException(why);
        });
        int label = LabelRecovery.recover(target, attackCase.gradientEstimate(target));
        var rows = LabelRows.of(new int[] {label}, target.outputSize(), DataType.DOUBLE);
        return MatchingAttacks.run(name(), attackCase, target, LabelTreatment.fixed(rows), new int[] {label}, config);
    }

    @Override
    public Optional<String> limitation(TargetNetwork network, int batchSize) {
        if (batchSize != 1) {
            return Optional.of("iDLG recovers the label of a single example, and the batch holds " + batchSize
                    + "; use DLG for batches");
        }
        return config.engine().limitation(network);
    }
}
