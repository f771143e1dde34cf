package org.dpdl4j.attacks.inversion;

import java.util.Objects;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.network.DenseStage;
import org.dpdl4j.attacks.network.TargetNetwork;

/**
 * The strongest attack that applies to a case: the exact analytic inversion where the first layer is dense with a bias
 * and the release holds one example, otherwise the optimisation attack (Inverting Gradients by default). The result
 * names the attack that ran in its method.
 */
public final class StrongestAttack implements InversionAttack {
    private final InversionAttack exact;
    private final InversionAttack optimised;

    /**
     * @param exact     the attack for a dense first layer with a bias and one example
     * @param optimised the attack for everything else
     */
    public StrongestAttack(InversionAttack exact, InversionAttack optimised) {
        this.exact = Objects.requireNonNull(exact, "exact attack must not be null");
        this.optimised = Objects.requireNonNull(optimised, "optimised attack must not be null");
    }

    @Override
    public String name() {
        return "auto";
    }

    /** The attack {@link #attack} runs on the case. */
    public InversionAttack choose(AttackCase attackCase) {
        TargetNetwork target = attackCase.target();
        boolean denseFirst = target.stages().get(0) instanceof DenseStage first && first.hasBias();
        return denseFirst && attackCase.batchSize() == 1 ? exact : optimised;
    }

    @Override
    public AttackResult attack(AttackCase attackCase) {
        InversionAttack chosen = choose(attackCase);
        AttackResult r = chosen.attack(attackCase);
        return new AttackResult(chosen.name(), "auto: " + chosen.name() + " (" + r.method() + ")", r.provenance(),
                r.images(), r.mse(), r.psnr(), r.ssim(), r.labelAccuracy(), r.finalMatchingLoss(), r.noise(),
                r.snapshots(), r.timing(), r.stopReason(), r.shape(), r.originals(), r.reconstruction());
    }
}
