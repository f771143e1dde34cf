package org.dpdl4j.attacks.inversion;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.network.LayerGradient;
import org.dpdl4j.attacks.optim.AdamConfig;

/**
 * A gradient-matching attack rerun while it is stuck: from some starts L-BFGS without line search jumps onto a
 * plateau where the dummy's units saturate, stops there, and reports a matching loss far above what the true input
 * reaches. The attacker can tell, because it knows the noise level of the release: at the true input the loss is
 * about {@code p s^2} ({@code p} coordinates, noise std {@code s} in the units of the matched target). A run whose
 * loss exceeds {@code 2 p s^2 + 1e-6 ||T||^2} is followed by the next attempt (a new random start, another
 * optimiser); the run with the lowest matching loss is reported. On releases whose noise dominates the gradient
 * every point scores about {@code p s^2}, so they are attacked once.
 */
public final class RestartingAttack implements InversionAttack {
    /** Relative slack on the noise floor for noise-free releases (float-precision matching losses). */
    static final double RELATIVE_TOLERANCE = 1e-6;

    private final List<InversionAttack> attempts;

    /** @param attempts the runs to try in order (e.g. the same attack from different seeds), at least one */
    public RestartingAttack(List<InversionAttack> attempts) {
        this.attempts = List.copyOf(Objects.requireNonNull(attempts, "attempts must not be null"));
        if (this.attempts.isEmpty()) {
            throw new IllegalArgumentException("give at least one attempt");
        }
    }

    /**
     * iDLG as a determined attacker runs it: L-BFGS (the given settings) from three random starts, then Adam
     * (learning rate 0.1, 1000 steps), which is slower but does not jump onto plateaus.
     */
    public static RestartingAttack idlg(DlgConfig config) {
        List<InversionAttack> runs = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            runs.add(new IdlgAttack(config.withSeed(config.seed() + k)));
        }
        runs.add(new IdlgAttack(config.withSeed(config.seed() + 3).withIterations(1000)
                .withSnapshotEvery(Math.min(config.snapshotEvery(), 1000)).withOptimizer(AdamConfig.withLearningRate(0.1))));
        return new RestartingAttack(runs);
    }

    @Override
    public String name() {
        return attempts.get(0).name();
    }

    @Override
    public AttackResult attack(AttackCase attackCase) {
        double acceptable = acceptableLoss(attackCase);
        AttackResult best = null;
        int runs = 0;
        double seconds = 0;
        long evaluations = 0;
        for (InversionAttack attempt : attempts) {
            AttackResult r = attempt.attack(attackCase);
            runs++;
            seconds += r.timing().seconds();
            evaluations += r.timing().evaluations();
            if (best == null || r.finalMatchingLoss() < best.finalMatchingLoss()
                    || Double.isNaN(best.finalMatchingLoss())) {
                best = r;
            }
            if (r.finalMatchingLoss() <= acceptable) {
                break;
            }
        }
        return best.withMethod(best.attack(), best.method() + ", lowest matching loss of " + runs + " run"
                + (runs == 1 ? "" : "s")).withTiming(new org.dpdl4j.attacks.Timing(seconds, evaluations,
                best.timing().outerSteps()));
    }

    /** The loss a run may end with without a restart: twice the noise floor, plus a relative tolerance. */
    static double acceptableLoss(AttackCase c) {
        double perCoordinate = c.scale().knownToAttacker() ? c.noiseStdInGradientUnits() : c.noiseStd();
        double target = 0;
        for (LayerGradient part : c.gradientEstimate(c.target())) {
            target += squared(part.weights().norm2Number().doubleValue());
            if (part.hasBias()) {
                target += squared(part.bias().norm2Number().doubleValue());
            }
        }
        return 2 * c.observed().length() * perCoordinate * perCoordinate + RELATIVE_TOLERANCE * target;
    }

    private static double squared(double v) {
        return v * v;
    }
}
