package org.dpdl4j.protocol;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A protocol calibrates its noise to {@code --epsilon} with the accountant that prices its ledger (the default, the
 * tightest valid bound), so that the planned ledger ends at the target: never above it, and no more than 1% below.
 * Inverting another accounting (e.g. zCDP's closed form where the ledger is priced by the exact Gaussian curve) left GOPA
 * and the random walk at about 0.74 of a target of 1, with more noise than the target needs.
 *
 * <p>Not here: Muffliato's pairwise targets (a network-DP bound, not the ledger's local DP) and private personalized
 * CD with Gaussian releases, whose split of epsilon-bar into classic per-release (epsilon, delta) Gaussians is not
 * calibrated to the ledger (it prices the releases at about 0.3 of the target).
 */
class CalibrationReachesTargetTest {
    private static final double DELTA = 1e-5;
    /** The most a calibrated ledger may fall below its target: searches stop within 1e-6 of it, closed forms closer. */
    private static final double SHORTFALL = 0.01;
    /**
     * Private personalized CD's allowance: epsilon-bar is a pure-DP budget (delta 0) split over Laplace releases by plain
     * composition, the guarantee its paper states; the ledger prices the same releases at delta > 0 (privacy loss
     * distributions), about 0.01 lower whatever the target.
     */
    private static final double PURE_DP_SHORTFALL = 0.02;

    /** Calibrated runs: protocol, options without the target, and the shortfall allowed. */
    private static final List<Arguments> RUNS = List.of(
            Arguments.of("dp-sgd", "epochs 2 batch-size 12 lr 0.1 clip 1", SHORTFALL),
            Arguments.of("dp-sgd", "epochs 1.5 batch-size 10 lr 0.1 clip 1 sampling fixed", SHORTFALL),
            Arguments.of("decor", "nodes 6 topology ring rounds 5 batch-size 3 lr 0.1 unit example clip 1 partition skewed", SHORTFALL),
            Arguments.of("decor", "nodes 6 topology ring rounds 5 batch-size 3 lr 0.1 unit user clip 1", SHORTFALL),
            Arguments.of("ldp", "nodes 6 topology ring rounds 4 batch-size 3 lr 0.1 unit user clip 1", SHORTFALL),
            Arguments.of("cdp", "nodes 5 rounds 4 batch-size 2 lr 0.1 unit example clip 1 partition skewed", SHORTFALL),
            Arguments.of("dp-fedavg-local", "machines 4 rounds 3 lr 0.1 clip 1", SHORTFALL),
            Arguments.of("dp-fedavg-central", "machines 8 rounds 3 lr 0.1 clip 1 client-rate 0.5", SHORTFALL),
            Arguments.of("gopa", "machines 6 rounds 3 lr 0.1 clip 1 gopa-k 2", SHORTFALL),
            Arguments.of("gopa", "machines 8 rounds 20 lr 0.1 clip 0.5 gopa-k 3 colluding-fraction 0.25", SHORTFALL),
            Arguments.of("mu2-untrusted", "machines 4 rounds 5", SHORTFALL),
            Arguments.of("mu2-trusted", "machines 3 lipschitz 2 smoothness 1", SHORTFALL),
            Arguments.of("random-walk", "machines 5 rounds 20 lr 0.1 clip 1", SHORTFALL),
            Arguments.of("muffliato", "nodes 6 topology ring rounds 4 lr 0.1 clip 1 gossip-steps 3 calibrate-to local", SHORTFALL),
            Arguments.of("dp-pg-extra", "nodes 5 topology ring rounds 4 clip 1 zeta 0.9", SHORTFALL),
            Arguments.of("dp-nids", "nodes 4 partition skewed rounds 5 clip 1", SHORTFALL),
            Arguments.of("dp-recal", "nodes 6 rounds 30 clip 1", SHORTFALL),
            Arguments.of("dp-personalized-cd", "rounds 60", PURE_DP_SHORTFALL));

    static Stream<Arguments> calibrated() {
        return Stream.of(1.0, 4.0).flatMap(target -> RUNS.stream().map(r -> Arguments.of(r.get()[0], r.get()[1], target, r.get()[2])));
    }

    @ParameterizedTest(name = "{0} {1} epsilon {2}")
    @MethodSource("calibrated")
    void theLedgerEndsJustBelowTheTarget(String name, String options, double target, double shortfall) {
        Protocol protocol = ProtocolRegistry.standard().get(name);
        RunSettings s = PlannedLedgerTest.settings(protocol, options + " epsilon " + target + " delta " + DELTA + " seed 7 noise seeded");
        RunInputs inputs = name.equals("dp-personalized-cd") ? PersonalizedPlannedLedgerTest.inputs()
                : PlannedLedgerTest.inputs(new PlannedLedgerTest.SoftmaxRegression());
        PlannedLedger plan = protocol.plannedLedger(s, inputs).orElseThrow();
        double spent = new LedgerAccounting(RunOptions.accountants(s), plan.relation()).bound(plan.ledger(), DELTA, Conversion.STANDARD)
                .epsilon();
        assertTrue(spent <= target, name + " spends " + spent + " > target " + target);
        assertTrue(spent >= (1 - shortfall) * target, name + " spends only " + spent + " of target " + target
                + ": its calibration does not invert the accountant that prices its ledger");
    }
}
