package org.dpdl4j.attacks.inversion;

import java.util.Objects;
import java.util.Optional;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.Timing;
import org.dpdl4j.attacks.network.DenseStage;
import org.dpdl4j.attacks.network.TargetNetwork;

/**
 * The strongest attack that applies to a case: the exact analytic inversion where the first layer is dense with a bias
 * and the release holds one example; otherwise the optimisation attack (Inverting Gradients by default), preceded, on a
 * noise-free release of one example, by a quick matching attack (iDLG by default) that is kept when it matches the
 * release as closely as the true input does. On smooth networks such as DLG's sigmoid LeNet, iDLG finds the input
 * exactly where Inverting Gradients' cosine matching with its image prior only comes near; where iDLG stalls (the tanh
 * CNN with max pooling) its loss stays far above that bar and Inverting Gradients runs as before. The result names the
 * attack that produced it in its method.
 */
public final class StrongestAttack implements InversionAttack {
    private final InversionAttack exact;
    private final InversionAttack quickMatch;
    private final InversionAttack optimised;

    /**
     * @param exact      the attack for a dense first layer with a bias and one example
     * @param quickMatch tried first on other noise-free releases of one example, kept when its matching loss reaches
     *                   what the true input scores ({@link RestartingAttack#acceptableLoss}); null for none
     * @param optimised  the attack for everything else
     */
    public StrongestAttack(InversionAttack exact, InversionAttack quickMatch, InversionAttack optimised) {
        this.exact = Objects.requireNonNull(exact, "exact attack must not be null");
        this.quickMatch = quickMatch;
        this.optimised = Objects.requireNonNull(optimised, "optimised attack must not be null");
    }

    /** Without a quick matching attack: the exact inversion where it applies, else {@code optimised}. */
    public StrongestAttack(InversionAttack exact, InversionAttack optimised) {
        this(exact, null, optimised);
    }

    @Override
    public String name() {
        return "auto";
    }

    /** The attack {@link #attack} runs first on the case. */
    public InversionAttack choose(AttackCase attackCase) {
        TargetNetwork target = attackCase.target();
        boolean denseFirst = target.stages().get(0) instanceof DenseStage first && first.hasBias();
        boolean one = attackCase.batchSize() == 1;
        if (denseFirst && one) {
            return exact;
        }
        return quickMatch != null && one && attackCase.noiseStd() == 0 ? quickMatch : optimised;
    }

    /**
     * {@inheritDoc} The optimised attack's limits, and for a single example those of the quick matching attack too:
     * its settings (the matching engine) are checked whether or not a case ends up choosing it.
     */
    @Override
    public Optional<String> limitation(TargetNetwork network, int batchSize) {
        Optional<String> quick = quickMatch != null && batchSize == 1 ? quickMatch.limitation(network, 1) : Optional.empty();
        return quick.isPresent() ? quick : optimised.limitation(network, batchSize);
    }

    @Override
    public AttackResult attack(AttackCase attackCase) {
        InversionAttack chosen = choose(attackCase);
        AttackResult r = chosen.attack(attackCase);
        String method = chosen.name() + " (" + r.method() + ")";
        if (chosen == quickMatch) {
            double acceptable = RestartingAttack.acceptableLoss(attackCase);
            if (!(r.finalMatchingLoss() <= acceptable)) {
                AttackResult first = r;
                r = optimised.attack(attackCase);
                method = optimised.name() + " (" + r.method() + "), after " + quickMatch.name() + " stalled at matching"
                        + " loss " + String.format(java.util.Locale.ROOT, "%.3g > %.3g", first.finalMatchingLoss(),
                        acceptable);
                r = r.withTiming(new Timing(first.timing().seconds() + r.timing().seconds(),
                        first.timing().evaluations() + r.timing().evaluations(), r.timing().outerSteps()));
                chosen = optimised;
            }
        }
        return r.withMethod(chosen.name(), "auto: " + method);
    }
}
